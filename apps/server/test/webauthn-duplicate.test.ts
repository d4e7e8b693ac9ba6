import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { encodeCBOR } from '@levischuck/tiny-cbor';
import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, callRefused, describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';

/** A software authenticator: one ES256 key and credential id, answering registrations with 'none' attestation. */
function softAuthenticator() {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credentialId = randomBytes(16);
  const cose = new Map<number, number | Uint8Array>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, Buffer.from(jwk.x!, 'base64url')],
    [-3, Buffer.from(jwk.y!, 'base64url')],
  ]);
  return {
    id: credentialId.toString('base64url'),
    register(challenge: string, origin: string) {
      const rpIdHash = createHash('sha256').update(new URL(origin).hostname).digest();
      const length = Buffer.alloc(2);
      length.writeUInt16BE(credentialId.length);
      const authData = Buffer.concat([
        rpIdHash,
        Buffer.from([0x41]), // user present, attested credential data
        Buffer.alloc(4), // sign count
        Buffer.alloc(16), // AAGUID
        length,
        credentialId,
        Buffer.from(encodeCBOR(cose)),
      ]);
      const attestation = encodeCBOR(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', new Uint8Array(authData)],
        ]) as never,
      );
      const clientData = { type: 'webauthn.create', challenge, origin, crossOrigin: false };
      return {
        id: this.id,
        rawId: this.id,
        type: 'public-key',
        response: {
          clientDataJSON: Buffer.from(JSON.stringify(clientData)).toString('base64url'),
          attestationObject: Buffer.from(attestation).toString('base64url'),
          transports: ['usb'],
        },
        clientExtensionResults: {},
      };
    },
  };
}

describeEachDialect('fingerprint registered twice on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Fresh options and the authenticator's answer to them, as the registration call takes them. */
  const registration = async (authenticator: ReturnType<typeof softAuthenticator>) => {
    const options = await call(server, apiCalls.fingerprint_options, { token: master.token });
    expect(options.status).toBe(200);
    // The options are the WebAuthn library's JSON, opaque to the contract.
    const response = authenticator.register(options.body.challenge as string, new URL(server.url).origin);
    return {
      token: master.token,
      cookies: { bogwan_webauthn: options.cookies.bogwan_webauthn! },
      body: { _id: master.user._id, credentialId: authenticator.id, response, currentPassword: GOOD_PASSWORD },
    };
  };
  const register = async (authenticator: ReturnType<typeof softAuthenticator>) =>
    call(server, apiCalls.fingerprint_register, await registration(authenticator));

  it('the options exclude the registered authenticator, and registering it again says it is already registered', async () => {
    const authenticator = softAuthenticator();
    const first = await register(authenticator);
    expect(first.body).toMatchObject({ message: 'register_fingerprint_complete_message' });

    const options = await call(server, apiCalls.fingerprint_options, { token: master.token });
    expect((options.body.excludeCredentials as { id: string }[]).map((c) => c.id)).toEqual([authenticator.id]);

    const again = await callRefused(server, apiCalls.fingerprint_register, await registration(authenticator));
    expect(again.body).toEqual({ statusCode: 409, message: 'fingerprint_already_registered' });
    const count = await server.app.db
      .selectFrom('webauthn_credentials')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('two registrations of one authenticator at once store it once; the other is told it is already registered', async () => {
    const authenticator = softAuthenticator();
    // Raw answers: which of the three wins is up to the race.
    const attempt = async () => server.request(apiCalls.fingerprint_register.method, apiCalls.fingerprint_register.path, await registration(authenticator));
    const answers = await Promise.all([attempt(), attempt(), attempt()]);
    const messages = answers.map((a) => a.body.message).sort();
    expect(messages.filter((m) => m === 'register_fingerprint_complete_message')).toHaveLength(1);
    expect(messages.filter((m) => m === 'fingerprint_already_registered')).toHaveLength(2);
  });
});
