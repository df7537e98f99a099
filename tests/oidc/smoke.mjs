// Smoke test for provider.mjs: the full authorization code + PKCE flow as a plain HTTP client.
// Run: node --test tests/oidc/smoke.mjs
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

const b64url = (buf) => Buffer.from(buf).toString('base64url');
const decodeJwtPart = (part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

let child;
let info;
let discovery;

before(async () => {
  child = spawn(process.execPath, [new URL('./provider.mjs', import.meta.url).pathname], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const [line] = await once(createInterface({ input: child.stdout }), 'line');
  info = JSON.parse(line);
  discovery = await (await fetch(`${info.issuer}/.well-known/openid-configuration`)).json();
});

after(() => child?.kill('SIGTERM'));

// Just enough of a cookie jar for one host: name -> value, paths and expiry ignored.
class Client {
  cookies = new Map();

  async request(url, init = {}) {
    const headers = new Headers(init.headers);
    if (this.cookies.size) {
      headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    }
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const expired = attrs.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
}

function authorizationUrl({ redirectUri, loginHint, state, nonce, challenge }) {
  const url = new URL(discovery.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: info.client_id,
    response_type: 'code',
    scope: 'openid',
    redirect_uri: redirectUri,
    state,
    nonce,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...(loginHint ? { login_hint: loginHint } : {}),
  });
  return url.href;
}

// Follows provider-internal redirects until one leaves the issuer; returns that Location and the
// provider paths visited on the way.
async function followToRedirectUri(client, res) {
  const visited = [];
  for (let hops = 0; hops < 10; hops += 1) {
    assert.ok([302, 303].includes(res.status), `expected a redirect, got ${res.status}: ${await res.text()}`);
    const location = new URL(res.headers.get('location'), info.issuer);
    if (location.origin !== info.issuer) return { callback: location, visited };
    visited.push(location.pathname);
    res = await client.request(location);
  }
  throw new Error('too many redirects');
}

async function signIn({
  login, viaForm, authMethod = 'basic', client = new Client(), replay = false,
  redirectUri = 'http://127.0.0.1:54321/auth/google/callback',
}) {
  const state = b64url(randomBytes(16));
  const nonce = b64url(randomBytes(16));
  const verifier = b64url(randomBytes(32));
  const challenge = b64url(createHash('sha256').update(verifier).digest());

  let res = await client.request(authorizationUrl({
    redirectUri, state, nonce, challenge, loginHint: viaForm ? undefined : login,
  }));
  assert.equal(res.status, 303);

  if (viaForm) {
    const interaction = new URL(res.headers.get('location'), info.issuer);
    assert.match(interaction.pathname, /^\/interaction\/[^/]+$/);
    res = await client.request(interaction);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<title>Test sign-in<\/title>/);
    const action = html.match(/<form method="post" action="([^"]+)"/)[1];
    const post = (body) => client.request(new URL(action, info.issuer), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body),
    });
    assert.equal((await post({ login: '  ' })).status, 400);
    res = await post({ login });
  }

  const { callback, visited } = await followToRedirectUri(client, res);
  assert.equal(`${callback.origin}${callback.pathname}`, redirectUri);
  assert.equal(callback.searchParams.get('state'), state);
  const code = callback.searchParams.get('code');
  assert.ok(code, `no code in ${callback}`);

  const form = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier };
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  if (authMethod === 'basic') {
    const credentials = `${encodeURIComponent(info.client_id)}:${encodeURIComponent(info.client_secret)}`;
    headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  } else {
    Object.assign(form, { client_id: info.client_id, client_secret: info.client_secret });
  }
  const tokenRes = await fetch(discovery.token_endpoint, {
    method: 'POST', headers, body: new URLSearchParams(form),
  });
  const tokens = await tokenRes.json();
  assert.equal(tokenRes.status, 200, JSON.stringify(tokens));

  const [header, payload] = tokens.id_token.split('.').map((p, i) => (i < 2 ? decodeJwtPart(p) : p));
  assert.equal(header.alg, 'RS256');
  assert.equal(payload.iss, info.issuer);
  assert.equal(payload.aud, info.client_id);
  assert.equal(payload.nonce, nonce);
  assert.equal(payload.sub, login);
  const jwks = await (await fetch(discovery.jwks_uri)).json();
  assert.ok(jwks.keys.some((k) => k.kid === header.kid && k.kty === 'RSA' && !k.d), 'kid not in JWKS');

  if (replay) { // the code is single-use (and its reuse revokes the grant)
    const again = await fetch(discovery.token_endpoint, { method: 'POST', headers, body: new URLSearchParams(form) });
    assert.equal(again.status, 400);
    assert.equal((await again.json()).error, 'invalid_grant');
  }
  return { client, visited };
}

test('discovery', () => {
  assert.equal(discovery.issuer, info.issuer);
  assert.deepEqual(discovery.code_challenge_methods_supported, ['S256']);
  assert.ok(discovery.id_token_signing_alg_values_supported.includes('RS256'));
});

test('login_hint skips the form', () => signIn({ login: 'alice', replay: true }));
test('sign in through the form', () => signIn({
  login: 'bob@example.test', viaForm: true, redirectUri: 'http://localhost:40000/auth/google/callback',
}));
test('client_secret_post also works', () => signIn({ login: 'carol', authMethod: 'post' }));

test('provider session is reused unless login_hint names another account', async () => {
  const { client, visited } = await signIn({ login: 'dave' });
  assert.equal(visited.filter((p) => p.startsWith('/interaction/')).length, 1);
  const again = await signIn({ login: 'dave', client });
  assert.deepEqual(again.visited, []); // straight back to the redirect_uri
  const other = await signIn({ login: 'erin', client });
  assert.equal(other.visited.filter((p) => p.startsWith('/interaction/')).length, 1);
});

test('PKCE is required', async () => {
  const url = new URL(authorizationUrl({
    redirectUri: 'http://localhost:1/auth/google/callback', state: 's', nonce: 'n', challenge: 'x',
  }));
  url.searchParams.delete('code_challenge');
  url.searchParams.delete('code_challenge_method');
  const res = await fetch(url, { redirect: 'manual' });
  assert.equal(res.status, 303);
  const back = new URL(res.headers.get('location'));
  assert.equal(back.origin, 'http://localhost:1');
  assert.equal(back.searchParams.get('error'), 'invalid_request');
});

for (const redirectUri of [
  'http://evil.example/auth/google/callback',
  'http://evil.example:8080/auth/google/callback',
  'https://127.0.0.1:8080/auth/google/callback',
  'http://127.0.0.1:8080/auth/other/callback',
  'http://localhost:8080/auth/google/callback/extra',
  'http://127.0.0.1:8080/auth/google/callback?x=1',
]) {
  test(`rejects redirect_uri ${redirectUri}`, async () => {
    const res = await fetch(authorizationUrl({ redirectUri, state: 's', nonce: 'n', challenge: 'x'.repeat(43) }), { redirect: 'manual' });
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('location'), null);
    assert.match(await res.text(), /redirect_uri/);
  });
}
