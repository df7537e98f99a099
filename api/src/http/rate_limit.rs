//! Rate limits on the HTTP API, per client address and per session: a burst, then a steady
//! rate. Over the limit a request gets `429 Too Many Requests` with `Retry-After` and changes
//! nothing. `/readyz` (one database query each) and `/metrics` count as the API does. Pages and
//! assets are not limited; WebSocket messages have their own per-socket limit.

use std::num::NonZeroU32;
use std::time::Duration;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::http::header::{HeaderValue, RETRY_AFTER};
use actix_web::middleware::Next;
use actix_web::web;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::domain::{PlayerId, Timestamp};
use crate::http::client_address::{ClientKey, TrustedProxies};
use crate::http::error::error_response;
use crate::http::session::session_token;
use crate::identity::session::SessionKeys;
use crate::metrics::{ErrorKind, Metrics};

/// Requests per second allowed per client address and per session, after the burst.
pub const DEFAULT_PER_SECOND: u32 = 20;
/// Requests allowed at once before the steady rate applies.
pub const DEFAULT_BURST: u32 = 60;

/// The limiters, shared by every worker. Keys are small and verified: a client address (an
/// IPv6 client by its /64), and the player of a session whose cookie checks out; a cookie that
/// does not verify is no key, so made-up cookies cannot grow the limiter.
#[derive(Debug)]
pub struct RateLimits {
    per_address: DefaultKeyedRateLimiter<ClientKey>,
    per_session: DefaultKeyedRateLimiter<PlayerId>,
    /// Whose `X-Forwarded-For` names the client.
    proxies: TrustedProxies,
    /// The limiters' clock, made once (making one calibrates it).
    clock: DefaultClock,
}

impl RateLimits {
    /// `per_second` steady requests after a burst of `burst`, for each address and session.
    pub fn new(per_second: NonZeroU32, burst: NonZeroU32) -> RateLimits {
        let quota = Quota::per_second(per_second).allow_burst(burst);
        RateLimits {
            per_address: RateLimiter::keyed(quota),
            per_session: RateLimiter::keyed(quota),
            proxies: TrustedProxies::default(),
            clock: DefaultClock::default(),
        }
    }

    /// The same limits, taking the client's address from `X-Forwarded-For` on requests from
    /// `proxies`.
    pub fn behind(self, proxies: TrustedProxies) -> RateLimits {
        RateLimits { proxies, ..self }
    }

    /// How long `address` (and `session`, if any) must wait, or `None` if the request may go.
    fn wait(&self, address: Option<ClientKey>, session: Option<PlayerId>) -> Option<Duration> {
        let now = self.clock.now();
        if let Some(address) = address
            && let Err(not_until) = self.per_address.check_key(&address)
        {
            return Some(not_until.wait_time_from(now));
        }
        if let Some(session) = session
            && let Err(not_until) = self.per_session.check_key(&session)
        {
            return Some(not_until.wait_time_from(now));
        }
        None
    }

    /// How many sessions the per-session limiter tracks now.
    pub fn tracked_sessions(&self) -> usize {
        self.per_session.len()
    }

    /// Forgets clients that are back within their limits, so memory stays bounded.
    pub fn forget_idle(&self) {
        self.per_address.retain_recent();
        self.per_session.retain_recent();
    }
}

impl Default for RateLimits {
    fn default() -> RateLimits {
        let per_second = NonZeroU32::new(DEFAULT_PER_SECOND).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(DEFAULT_BURST).unwrap_or(NonZeroU32::MIN);
        RateLimits::new(per_second, burst)
    }
}

/// Whether a request for `path` is rate-limited: the API, and the checks that cost the node
/// work (`/readyz` asks the database; `/metrics` reads the queue).
fn is_limited(path: &str) -> bool {
    path.starts_with("/api/") || path == "/readyz" || path == "/metrics"
}

/// Middleware applying [`RateLimits`] to `/api/`, `/readyz` and `/metrics` requests.
pub async fn limit_rate(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let limits = request.app_data::<web::Data<RateLimits>>().cloned();
    if let Some(limits) = limits.filter(|_| is_limited(request.path())) {
        let address = request.peer_addr().map(|peer| {
            let forwarded_for = request.headers().get_all("x-forwarded-for");
            let forwarded_for = forwarded_for.filter_map(|value| value.to_str().ok());
            ClientKey::of(limits.proxies.client_address(peer.ip(), forwarded_for))
        });
        let keys = request.app_data::<web::Data<SessionKeys>>();
        let session = session_token(request.request()).and_then(|token| {
            let session = keys?.verify(&token, Timestamp::now()).ok()?;
            Some(session.player)
        });
        if let Some(wait) = limits.wait(address, session) {
            if let Some(metrics) = request.app_data::<web::Data<Metrics>>() {
                metrics.error(ErrorKind::Refused, "rate_limited");
            }
            let seconds = wait.as_secs().max(1);
            let mut response = error_response(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                format!("too many requests; try again in {seconds} s"),
            );
            if let Ok(value) = HeaderValue::from_str(&seconds.to_string()) {
                response.headers_mut().insert(RETRY_AFTER, value);
            }
            return Ok(request.into_response(response));
        }
    }
    Ok(next.call(request).await?.map_into_boxed_body())
}

#[cfg(test)]
mod tests {
    use std::net::IpAddr;

    use super::*;

    fn limits(burst: u32) -> RateLimits {
        RateLimits::new(NonZeroU32::new(1).unwrap(), NonZeroU32::new(burst).unwrap())
    }

    fn client(octets: [u8; 4]) -> Option<ClientKey> {
        Some(ClientKey::of(IpAddr::from(octets)))
    }

    #[test]
    fn a_burst_is_allowed_then_the_address_must_wait() {
        let limits = limits(3);
        let address = client([127, 0, 0, 1]);
        for _ in 0..3 {
            assert_eq!(limits.wait(address, None), None);
        }
        assert!(limits.wait(address, None).is_some());
    }

    #[test]
    fn addresses_are_limited_separately() {
        let limits = limits(1);
        assert_eq!(limits.wait(client([10, 0, 0, 1]), None), None);
        assert_eq!(limits.wait(client([10, 0, 0, 2]), None), None);
        assert!(limits.wait(client([10, 0, 0, 1]), None).is_some());
    }

    #[test]
    fn one_session_is_limited_across_addresses() {
        let limits = limits(2);
        let player: PlayerId = "annaaaaaaaaaaaaa".parse().unwrap();
        let session = || Some(player.clone());
        assert_eq!(limits.wait(client([10, 0, 0, 1]), session()), None);
        assert_eq!(limits.wait(client([10, 0, 0, 2]), session()), None);
        assert!(limits.wait(client([10, 0, 0, 3]), session()).is_some());
    }

    #[test]
    fn one_ipv6_client_is_limited_across_its_slash_64() {
        let limits = limits(2);
        let address = |text: &str| Some(ClientKey::of(text.parse::<IpAddr>().unwrap()));
        assert_eq!(limits.wait(address("2001:db8::1"), None), None);
        assert_eq!(limits.wait(address("2001:db8::2"), None), None);
        assert!(limits.wait(address("2001:db8::ffff:3"), None).is_some());
    }

    #[actix_web::test]
    async fn made_up_cookies_are_no_key_and_a_signed_session_is_one() {
        use actix_web::cookie::Cookie;
        use actix_web::test::{TestRequest, call_service, init_service};

        use crate::domain::Nickname;
        use crate::identity::session::{COOKIE_NAME, Session};

        let limits = web::Data::new(limits(1_000));
        let keys = SessionKeys::new(b"0123456789abcdef0123456789abcdef", false).unwrap();
        let app = init_service(
            actix_web::App::new()
                .app_data(limits.clone())
                .app_data(web::Data::new(keys.clone()))
                .wrap(actix_web::middleware::from_fn(limit_rate))
                .route("/api/stats", web::get().to(actix_web::HttpResponse::Ok)),
        )
        .await;
        let request = |cookie: String| {
            TestRequest::get()
                .uri("/api/stats")
                .peer_addr("203.0.113.9:4000".parse().unwrap())
                .cookie(Cookie::new(COOKIE_NAME, cookie))
                .to_request()
        };
        for n in 0..50 {
            let junk = format!("{n}.{}", "x".repeat(1_000));
            assert_eq!(call_service(&app, request(junk)).await.status(), StatusCode::OK);
        }
        assert_eq!(limits.tracked_sessions(), 0);
        let ann = Session {
            player: PlayerId::generate(),
            nickname: Nickname::parse("Ann").unwrap(),
            account: false,
        };
        let token = keys.issue(&ann, Timestamp::now());
        assert_eq!(call_service(&app, request(token.clone())).await.status(), StatusCode::OK);
        assert_eq!(limits.tracked_sessions(), 1);
        // Nor is a signed token next to 120 KiB of made-up cookies: such a header is not read.
        let padded = TestRequest::get()
            .uri("/api/stats")
            .peer_addr("203.0.113.9:4000".parse().unwrap())
            .insert_header((
                "cookie",
                format!("junk={}; {COOKIE_NAME}={token}", "x".repeat(120 * 1024)),
            ))
            .to_request();
        assert_eq!(call_service(&app, padded).await.status(), StatusCode::OK);
        assert_eq!(limits.tracked_sessions(), 1);
    }
}
