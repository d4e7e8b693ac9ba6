import os from 'node:os';
import type { NetworkInterface, SystemInfo } from '@bogwan/contracts';

/** The machine the server runs on, as Settings → System → Information shows it. */
export function systemInfo(): SystemInfo {
  const cpus = os.cpus();
  return {
    hostname: os.hostname(),
    platform: os.platform(),
    arch: os.arch(),
    release: os.release(),
    uptime: Math.floor(os.uptime()),
    processUptime: Math.floor(process.uptime()),
    memory: { total: os.totalmem(), free: os.freemem() },
    cpu: { model: cpus[0]?.model.trim() ?? '', speed: cpus[0]?.speed ?? 0, cores: cpus.length },
    loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
    nodeVersion: process.version,
  };
}

/** Every network interface with its addresses, by name. */
export function networkInterfaces(): NetworkInterface[] {
  return Object.entries(os.networkInterfaces())
    .map(([name, addresses]) => ({
      name,
      addresses: (addresses ?? []).map((a) => ({
        address: a.address,
        netmask: a.netmask,
        family: a.family,
        mac: a.mac,
        internal: a.internal,
        cidr: a.cidr,
        ...(a.family === 'IPv6' ? { scopeid: a.scopeid } : {}),
      })),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
