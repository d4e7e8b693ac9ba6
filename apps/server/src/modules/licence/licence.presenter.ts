import type { Licence } from '@bogwan/contracts';
import type { LicenceState } from './licence.service.js';

/** Trial installations show this as their licence type. */
export const TRIAL_TYPE = 'TRIAL';

const day = (date: Date) => date.toISOString().slice(0, 10);

/** The licence as the Settings → System → Licence screen shows it; never the key itself. */
export function toLicenceResponse(state: LicenceState, trialSeats: number, seatsUsed: number): Licence {
  const { key } = state;
  if (!key) {
    return {
      org: '',
      sen: '',
      serverId: state.serverId,
      type: TRIAL_TYPE,
      user: trialSeats,
      purchase: day(state.trialStarted),
      maintenance: day(state.trialEnd),
      trial: true,
      expiresAt: state.trialEnd.toISOString(),
      seatsUsed,
    };
  }
  return {
    org: key.org,
    sen: key.sen,
    serverId: state.serverId,
    type: key.type,
    user: key.user,
    purchase: key.purchase,
    maintenance: key.maintenance,
    trial: false,
    expiresAt: state.validUntil.toISOString(),
    seatsUsed,
  };
}
