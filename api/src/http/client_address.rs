//! Which address a request comes from, when the server may sit behind proxies.
//!
//! The TCP peer is the client unless it is one of the configured trusted proxies
//! (`OUTFLANK_TRUSTED_PROXIES`). Then the client is read from `X-Forwarded-For`, from the right:
//! each proxy appends the address it was connected from, so the rightmost address that is not a
//! trusted proxy was written by one, and anything to its left may have been made up by the
//! client.

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::str::FromStr;

use ipnet::IpNet;

pub use crate::domain::ClientKey;

/// The proxies whose `X-Forwarded-For` is believed: addresses and networks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

/// Why `OUTFLANK_TRUSTED_PROXIES` could not be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0:?} is not an IP address or network (such as 10.0.0.5 or 10.0.0.0/8)")]
pub struct InvalidProxy(String);

impl FromStr for TrustedProxies {
    type Err = InvalidProxy;

    /// A comma-separated list of addresses (`127.0.0.1`, `::1`) and networks (`10.0.0.0/8`);
    /// empty for none.
    fn from_str(text: &str) -> Result<TrustedProxies, InvalidProxy> {
        text.split(',')
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .map(|entry| {
                entry
                    .parse::<IpNet>()
                    .or_else(|_| entry.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| InvalidProxy(entry.to_owned()))
            })
            .collect::<Result<_, _>>()
            .map(TrustedProxies)
    }
}

impl fmt::Display for TrustedProxies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let entries: Vec<String> = self.0.iter().map(IpNet::to_string).collect();
        f.write_str(&entries.join(","))
    }
}

impl TrustedProxies {
    /// Whether `address` is one of the trusted proxies.
    pub fn trusts(&self, address: IpAddr) -> bool {
        let address = address.to_canonical();
        self.0.iter().any(|network| network.contains(&address))
    }

    /// The client's address for a request from `peer` carrying these `X-Forwarded-For` header
    /// values (in order). An entry that cannot be read stops the walk, and the address to its
    /// right (the last one a trusted proxy vouched for) is the client.
    pub fn client_address<'h>(
        &self,
        peer: IpAddr,
        forwarded_for: impl IntoIterator<Item = &'h str>,
    ) -> IpAddr {
        let mut client = peer.to_canonical();
        if !self.trusts(client) {
            return client;
        }
        let hops: Vec<&str> =
            forwarded_for.into_iter().flat_map(|value| value.split(',')).collect();
        for hop in hops.into_iter().rev() {
            let Some(address) = parse_hop(hop.trim()) else { return client };
            client = address;
            if !self.trusts(address) {
                break;
            }
        }
        client
    }
}

/// The client `request` counts against in budgets and limits: [`client_of`], or the unspecified
/// address for a request without a peer (none comes over a real socket).
pub fn client_key(request: &actix_web::HttpRequest) -> ClientKey {
    client_of(request).unwrap_or_else(|| ClientKey::of(std::net::Ipv4Addr::UNSPECIFIED.into()))
}

/// The client of `request`: its peer, or behind the trusted proxies (from the app's
/// [`TrustedProxies`]), the address they name. `None` without a peer address.
pub fn client_of(request: &actix_web::HttpRequest) -> Option<ClientKey> {
    let peer = request.peer_addr()?.ip();
    let proxies = request.app_data::<actix_web::web::Data<TrustedProxies>>();
    let address = match proxies {
        Some(proxies) => {
            let forwarded_for = request.headers().get_all("x-forwarded-for");
            proxies.client_address(peer, forwarded_for.filter_map(|value| value.to_str().ok()))
        }
        None => peer.to_canonical(),
    };
    Some(ClientKey::of(address))
}

/// An address as proxies write it: `203.0.113.7`, `2001:db8::1`, or with a port
/// (`203.0.113.7:5000`, `[2001:db8::1]:5000`).
fn parse_hop(hop: &str) -> Option<IpAddr> {
    hop.parse::<IpAddr>()
        .or_else(|_| hop.parse::<SocketAddr>().map(|socket| socket.ip()))
        .ok()
        .map(|address| address.to_canonical())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn proxies(text: &str) -> TrustedProxies {
        text.parse().unwrap()
    }

    #[test]
    fn without_trusted_proxies_the_peer_is_the_client_whatever_the_header_says() {
        let none = TrustedProxies::default();
        assert_eq!(none.client_address(ip("10.0.0.5"), ["203.0.113.7"]), ip("10.0.0.5"));
    }

    #[test]
    fn a_request_from_an_untrusted_peer_is_its_own_client() {
        let trusted = proxies("10.0.0.0/8");
        assert_eq!(trusted.client_address(ip("192.0.2.1"), ["203.0.113.7"]), ip("192.0.2.1"));
    }

    #[test]
    fn behind_a_trusted_proxy_the_client_is_the_address_it_appended() {
        let trusted = proxies("10.0.0.0/8");
        assert_eq!(trusted.client_address(ip("10.0.0.5"), ["203.0.113.7"]), ip("203.0.113.7"));
    }

    #[test]
    fn addresses_a_client_made_up_left_of_the_proxys_entry_are_ignored() {
        let trusted = proxies("10.0.0.0/8");
        let header = ["1.2.3.4, 203.0.113.7"];
        assert_eq!(trusted.client_address(ip("10.0.0.5"), header), ip("203.0.113.7"));
    }

    #[test]
    fn a_chain_of_trusted_proxies_is_walked_through() {
        let trusted = proxies("10.0.0.0/8, 192.168.1.1");
        let header = ["198.51.100.9", "203.0.113.7, 192.168.1.1, 10.1.2.3"];
        assert_eq!(trusted.client_address(ip("10.0.0.5"), header), ip("203.0.113.7"));
    }

    #[test]
    fn a_garbled_entry_stops_at_the_last_address_a_proxy_vouched_for() {
        let trusted = proxies("10.0.0.0/8");
        assert_eq!(trusted.client_address(ip("10.0.0.5"), ["nonsense"]), ip("10.0.0.5"));
        let header = ["nonsense, 10.9.9.9"];
        assert_eq!(trusted.client_address(ip("10.0.0.5"), header), ip("10.9.9.9"));
    }

    #[test]
    fn a_trusted_proxy_without_the_header_is_the_client() {
        let trusted = proxies("127.0.0.1");
        assert_eq!(trusted.client_address(ip("127.0.0.1"), []), ip("127.0.0.1"));
    }

    #[test]
    fn ports_and_ipv4_mapped_ipv6_addresses_are_understood() {
        let trusted = proxies("10.0.0.0/8,::1");
        assert_eq!(
            trusted.client_address(ip("::ffff:10.0.0.5"), ["[2001:db8::1]:443"]),
            ip("2001:db8::1")
        );
        assert_eq!(trusted.client_address(ip("::1"), ["203.0.113.7:5000"]), ip("203.0.113.7"));
    }

    #[test]
    fn an_ipv6_client_counts_as_its_slash_64_and_an_ipv4_one_as_itself() {
        let key = |text| ClientKey::of(ip(text)).to_string();
        assert_eq!(key("2001:db8:1:2:aaaa::1"), key("2001:db8:1:2:bbbb::9"));
        assert_eq!(key("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
        assert_ne!(key("2001:db8:1:3::1"), key("2001:db8:1:2::1"));
        assert_eq!(key("203.0.113.7"), "203.0.113.7");
        assert_eq!(key("::ffff:203.0.113.7"), "203.0.113.7");
    }

    #[test]
    fn the_setting_lists_addresses_and_networks() {
        assert_eq!(proxies(""), TrustedProxies::default());
        assert_eq!(proxies(" 10.0.0.0/8 , ::1 ").to_string(), "10.0.0.0/8,::1/128");
        assert_eq!(
            "10.0.0.0/33".parse::<TrustedProxies>(),
            Err(InvalidProxy("10.0.0.0/33".into()))
        );
        assert_eq!("proxy".parse::<TrustedProxies>(), Err(InvalidProxy("proxy".into())));
    }
}
