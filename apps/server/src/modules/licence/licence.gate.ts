import type { FastifyInstance } from 'fastify';
import { forbidden } from '../../errors.js';
import type { LicenceService } from './licence.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Licence rules; account creation asks it for a free seat. */
    licence: LicenceService;
  }
}

/**
 * The licence gate, registered right after the authorization hook: while a key is
 * needed (trial over, or the key's maintenance ended) every route whose policy is not
 * `licenceExempt` answers 403 `license_required`. Also starts the licence on first start.
 */
export function registerLicence(app: FastifyInstance, licence: LicenceService): void {
  app.decorate('licence', licence);
  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const policy = request.routeOptions.config.policy;
    if (!policy || policy.licenceExempt) return;
    if (await licence.isRequired()) throw forbidden('license_required');
  });
  app.addHook('onReady', async () => {
    const state = await licence.start();
    const required = await licence.isRequired();
    const details = { serverId: state.serverId, licensed: state.key !== null, validUntil: state.validUntil.toISOString() };
    if (required) app.log.warn(details, 'A licence key is needed: every call except sign-in and the licence answers 403 until one is saved');
    else app.log.info(details, state.key ? 'Licence valid' : 'Running on the trial licence');
  });
}
