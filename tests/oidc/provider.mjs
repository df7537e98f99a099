// A local OpenID Connect provider that stands in for Google in Outflank's sign-in tests.
// Built on oidc-provider. Prints one JSON line to stdout when ready; everything else goes to stderr.
// Exits when stdin closes or on SIGTERM/SIGINT.
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

// oidc-provider writes notices with console.info (stdout); stdout is reserved for the ready line.
console.log = console.info = console.error;

const { default: Provider, interactionPolicy } = await import('oidc-provider');

const port = Number(process.env.OIDC_PORT ?? 0);
const clientId = process.env.OIDC_CLIENT_ID || 'outflank-test';
const clientSecret = process.env.OIDC_CLIENT_SECRET || 'outflank-test-secret';
const callbackPath = '/auth/google/callback';

const server = createServer((req, res) => handle(req, res));
await new Promise((resolve, reject) => {
  server.once('error', reject);
  server.listen(port, '127.0.0.1', resolve);
});
const issuer = `http://127.0.0.1:${server.address().port}`;

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' };

// oidc-provider always asks native clients for consent (RFC 8252 §8.6); this client is only "native"
// for the loopback port rule, so let it behave like a web client with an existing grant.
const policy = interactionPolicy.base();
policy.get('consent').checks.remove('native_client_prompt');
// A login_hint naming another account than the signed-in one asks for a new login (so the hint wins
// over an existing provider session, as a test switching accounts expects).
policy.get('login').checks.add(new interactionPolicy.Check(
  'login_hint_mismatch',
  'login_hint names another account than the signed-in one',
  'login_required',
  ({ oidc }) => Boolean(oidc.params.login_hint && oidc.session.accountId
    && oidc.params.login_hint !== oidc.session.accountId),
));

const provider = new Provider(issuer, {
  clients: [{
    client_id: clientId,
    client_secret: clientSecret,
    // A "native" client gets RFC 8252 §7.3 loopback handling: for http://127.0.0.1 and
    // http://localhost redirect URIs the port is ignored when matching; scheme, host and path are not.
    application_type: 'native',
    redirect_uris: [`http://127.0.0.1${callbackPath}`, `http://localhost${callbackPath}`],
    token_endpoint_auth_method: 'client_secret_basic', // client_secret_post is accepted too
    grant_types: ['authorization_code'],
    response_types: ['code'],
    id_token_signed_response_alg: 'RS256',
  }],
  jwks: { keys: [signingKey] },
  cookies: {
    keys: [randomBytes(32).toString('base64url')],
    // SameSite=None cookies without Secure are dropped by browsers; this is plain http.
    long: { httpOnly: true, sameSite: 'lax', signed: true },
    short: { httpOnly: true, sameSite: 'lax', signed: true },
  },
  pkce: { methods: ['S256'], required: () => true },
  scopes: ['openid'],
  features: { devInteractions: { enabled: false } },
  interactions: { policy, url: (ctx, interaction) => `/interaction/${interaction.uid}` },
  findAccount: (ctx, accountId) => ({ accountId, claims: () => ({ sub: accountId }) }),
  ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
});
provider.proxy = false;

const providerCallback = provider.callback();

async function handle(req, res) {
  const url = new URL(req.url, issuer);
  const match = url.pathname.match(/^\/interaction\/([^/]+)(\/login)?$/);
  if (!match) return providerCallback(req, res);
  try {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== match[1]) return send(res, 400, 'interaction mismatch');
    if (req.method === 'GET' && !match[2]) {
      if (details.prompt.name === 'consent') return finish(res, details, details.session.accountId);
      if (details.params.login_hint) return finish(res, details, details.params.login_hint);
      return send(res, 200, loginPage(details.uid), 'text/html; charset=utf-8');
    }
    if (req.method === 'POST' && match[2]) {
      const login = new URLSearchParams(await readBody(req)).get('login')?.trim();
      if (!login) return send(res, 400, 'login is required');
      return finish(res, details, login);
    }
    return send(res, 405, 'method not allowed');
  } catch (err) {
    console.error('interaction error:', err);
    return send(res, 400, `interaction failed: ${err.message}`);
  }
}

// Logs the account in and grants the requested scope, so no consent screen ever appears.
async function finish(res, details, accountId) {
  const sameAccount = details.session?.accountId === accountId;
  const grant = (sameAccount && details.grantId && await provider.Grant.find(details.grantId))
    || new provider.Grant({ accountId, clientId: details.params.client_id });
  grant.addOIDCScope(details.params.scope);
  const grantId = await grant.save();
  if (details.session && !sameAccount) {
    // Switching accounts: end the old provider session here. (oidc-provider would otherwise answer
    // with a JavaScript-submitted logout form, which a plain HTTP client cannot follow.)
    await (await provider.Session.findByUid(details.session.uid))?.destroy();
    delete details.session;
  }
  // What provider.interactionFinished does, minus its re-read of the interaction.
  details.result = { login: { accountId }, consent: { grantId } };
  await details.save(details.exp - Math.floor(Date.now() / 1000));
  res.writeHead(303, { location: details.returnTo, 'content-length': '0' });
  res.end();
}

function loginPage(uid) {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Test sign-in</title></head>
<body>
<h1>Test sign-in</h1>
<form method="post" action="/interaction/${encodeURIComponent(uid)}/login">
<label for="login">Account</label>
<input id="login" name="login" type="text" autofocus required>
<button type="submit">Sign in</button>
</form>
</body></html>
`;
}

function send(res, status, body, type = 'text/plain; charset=utf-8') {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

async function readBody(req) {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 10_000) throw new Error('body too large');
  }
  return body;
}

function shutdown() {
  server.close();
  server.closeAllConnections();
  process.exit(0);
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
process.stdin.on('end', shutdown);
process.stdin.on('close', shutdown);
process.stdin.resume();

process.stdout.write(`${JSON.stringify({ issuer, client_id: clientId, client_secret: clientSecret })}\n`);
