//! Open sockets counted across the cluster, so that the caps per client address and per
//! player hold on every node together rather than on each.
//!
//! Each node keeps its own counts in one hash (`<prefix>:sockets:<node>`, fields `c:<address>`
//! and `p:<player>`) and names itself in a set of counting nodes (`<prefix>:socket-nodes`).
//! Opening a socket sums the field over the nodes still alive and counts it in only if both caps
//! allow, in one script; a node that stopped proving it is alive is dropped from the sum with its
//! counts, so a crash frees its sockets' places. Closing a socket counts it out in the background;
//! should that fail, [`Cluster::recount_sockets`] rewrites the node's counts from what it holds
//! once Redis is back.

use std::sync::LazyLock;

use redis::Script;

use super::{Cluster, ClusterError};
use crate::domain::{ClientKey, PlayerId};

/// How long a node's counts outlive its last socket opened: a safety net only, since a stopped
/// node's counts go as soon as another node opens a socket.
const COUNTS_TTL_MS: u64 = 24 * 60 * 60 * 1_000;

/// Counts a socket in if the sums over live nodes allow: `0` counted, `1` the player's cap is
/// reached, `2` the address's. Nodes no longer alive are forgotten with their counts.
const ENTER: &str = r"
local live = {}
for _, node in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if node == ARGV[1] or redis.call('EXISTS', ARGV[3] .. node .. ':alive') == 1 then
    table.insert(live, node)
  else
    redis.call('SREM', KEYS[1], node)
    redis.call('DEL', ARGV[2] .. node)
  end
end
local function total(field)
  local sum = 0
  for _, node in ipairs(live) do
    sum = sum + tonumber(redis.call('HGET', ARGV[2] .. node, field) or '0')
  end
  return sum
end
if ARGV[6] ~= '' and total(ARGV[6]) >= tonumber(ARGV[7]) then
  return 1
end
if total(ARGV[4]) >= tonumber(ARGV[5]) then
  return 2
end
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('HINCRBY', KEYS[2], ARGV[4], 1)
if ARGV[6] ~= '' then
  redis.call('HINCRBY', KEYS[2], ARGV[6], 1)
end
redis.call('PEXPIRE', KEYS[2], ARGV[8])
return 0
";

/// Counts a socket out of this node's hash: each field in `ARGV` by one, gone at zero.
const LEAVE: &str = r"
for _, field in ipairs(ARGV) do
  if redis.call('HINCRBY', KEYS[1], field, -1) <= 0 then
    redis.call('HDEL', KEYS[1], field)
  end
end
return 0
";

static ENTER_SCRIPT: LazyLock<Script> = LazyLock::new(|| Script::new(ENTER));
static LEAVE_SCRIPT: LazyLock<Script> = LazyLock::new(|| Script::new(LEAVE));

/// The caps a socket is counted against across the cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SocketCaps {
    pub per_player: usize,
    pub per_client: usize,
}

/// Which cap refused a socket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CapReached {
    Player,
    Client,
}

/// One socket counted across the cluster; dropping it counts it out (in the background).
#[derive(Debug)]
pub struct SharedSocket {
    cluster: Cluster,
    fields: Vec<String>,
}

impl Drop for SharedSocket {
    fn drop(&mut self) {
        let cluster = self.cluster.clone();
        let fields = std::mem::take(&mut self.fields);
        // A socket dropped as its runtime stops is counted out by the node's tally expiring.
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        runtime.spawn(async move {
            let mut invocation = LEAVE_SCRIPT.prepare_invoke();
            invocation.key(cluster.sockets_key(cluster.node()));
            for field in &fields {
                invocation.arg(field);
            }
            let mut redis = cluster.inner.redis.clone();
            if let Err(error) = invocation.invoke_async::<i64>(&mut redis).await {
                tracing::warn!(%error, "a closed socket could not be counted out of the cluster");
            }
        });
    }
}

impl Cluster {
    /// Counts one more socket of `client` (and `player`, when it has a session) across the
    /// cluster, unless either is at its cap on all live nodes together.
    ///
    /// # Errors
    /// Redis cannot be reached: nothing is counted then.
    pub async fn enter_socket(
        &self,
        client: &ClientKey,
        player: Option<&PlayerId>,
        caps: SocketCaps,
    ) -> Result<Result<SharedSocket, CapReached>, ClusterError> {
        let client_field = client_field(client);
        let player_field = player.map(player_field);
        let mut redis = self.inner.redis.clone();
        let outcome: i64 = tokio::time::timeout(
            super::REDIS_TIMEOUT,
            ENTER_SCRIPT
                .key(self.socket_nodes_key())
                .key(self.sockets_key(self.node()))
                .arg(self.node())
                .arg(self.sockets_key(""))
                .arg(format!("{}:node:", self.inner.prefix))
                .arg(&client_field)
                .arg(caps.per_client)
                .arg(player_field.as_deref().unwrap_or(""))
                .arg(caps.per_player)
                .arg(COUNTS_TTL_MS)
                .invoke_async(&mut redis),
        )
        .await
        .map_err(|_| ClusterError::Timeout)??;
        Ok(match outcome {
            0 => {
                let fields = std::iter::once(client_field).chain(player_field).collect();
                Ok(SharedSocket { cluster: self.clone(), fields })
            }
            1 => Err(CapReached::Player),
            _ => Err(CapReached::Client),
        })
    }

    /// Replaces this node's counts in the cluster by `clients` and `players`, the sockets it
    /// holds: after Redis was unreachable, counts-out may have been lost.
    ///
    /// # Errors
    /// Redis cannot be reached.
    pub async fn recount_sockets(
        &self,
        clients: &[(ClientKey, usize)],
        players: &[(PlayerId, usize)],
    ) -> Result<(), ClusterError> {
        let key = self.sockets_key(self.node());
        let mut pipe = redis::pipe();
        pipe.atomic().del(&key).ignore();
        let fields: Vec<(String, usize)> = clients
            .iter()
            .map(|(client, count)| (client_field(client), *count))
            .chain(players.iter().map(|(player, count)| (player_field(player), *count)))
            .filter(|(_, count)| *count > 0)
            .collect();
        if !fields.is_empty() {
            pipe.hset_multiple(&key, &fields).ignore();
            pipe.pexpire(&key, i64::try_from(COUNTS_TTL_MS).unwrap_or(i64::MAX)).ignore();
            pipe.sadd(self.socket_nodes_key(), self.node()).ignore();
        }
        let mut redis = self.inner.redis.clone();
        let () = pipe.query_async(&mut redis).await?;
        Ok(())
    }

    fn sockets_key(&self, node: &str) -> String {
        format!("{}:sockets:{node}", self.inner.prefix)
    }

    fn socket_nodes_key(&self) -> String {
        format!("{}:socket-nodes", self.inner.prefix)
    }
}

fn client_field(client: &ClientKey) -> String {
    format!("c:{client}")
}

fn player_field(player: &PlayerId) -> String {
    format!("p:{player}")
}
