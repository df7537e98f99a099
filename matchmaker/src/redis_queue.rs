//! The Redis queue: several server nodes share one Redis and never pair a seeker twice.
//!
//! Keys, all under a configurable prefix `P` (one Redis, not a cluster: the scripts build keys
//! from the prefix):
//!
//! | key | type | holds |
//! |---|---|---|
//! | `P:waiting:quick`, `P:waiting:ranked` | sorted set | seeker ids, scored by rating in their first pool |
//! | `P:ticket:<id>` | string | the seeker's ticket, as JSON |
//! | `P:seen` | sorted set | seeker ids, scored by last heartbeat (epoch ms) |
//! | `P:decision:<id>` | string, expiring | the decision made for the seeker, as JSON |
//!
//! Every write is one Lua script, so the keys of a seeker always agree. A pairing run reads
//! the tickets, runs the pure policy locally, then claims all its decisions in one script: a
//! decision is applied only if every one of its seekers still has exactly the ticket that was
//! read (compare-and-swap), and applying it removes them from the queue and stores the
//! decision for each, in the same atomic step. A node that loses the race just drops that
//! decision; its seekers are left to whoever claimed them, or to the next run.

use std::fmt;
use std::sync::Arc;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{AsyncCommands, Script};

use crate::policy::{Policy, pair};
use crate::queue::{Queue, QueueError, QueueResult};
use crate::ticket::{Decision, Millis, QueueKind, SeekerId, Ticket};

/// Removes a seeker from both queues and the heartbeat set, then deletes their ticket.
/// Shared by the scripts below. ARGV[1] is the prefix.
const REMOVE: &str = r"
local function remove(p, id)
  redis.call('ZREM', p .. ':waiting:quick', id)
  redis.call('ZREM', p .. ':waiting:ranked', id)
  redis.call('ZREM', p .. ':seen', id)
  return redis.call('DEL', p .. ':ticket:' .. id)
end
";

/// ARGV: prefix, id, queue name, rating (first pool), ticket JSON, now ms (the first heartbeat).
const JOIN: &str = r"
local p, id = ARGV[1], ARGV[2]
remove(p, id)
redis.call('ZADD', p .. ':waiting:' .. ARGV[3], ARGV[4], id)
redis.call('SET', p .. ':ticket:' .. id, ARGV[5])
redis.call('ZADD', p .. ':seen', ARGV[6], id)
return 1
";

/// ARGV: prefix, id. Returns 1 if the seeker was waiting.
const LEAVE: &str = r"
return remove(ARGV[1], ARGV[2])
";

/// ARGV: prefix, id, now ms. Returns 0 if the seeker is not waiting.
const HEARTBEAT: &str = r"
local p, id = ARGV[1], ARGV[2]
if redis.call('EXISTS', p .. ':ticket:' .. id) == 0 then return 0 end
local seen = redis.call('ZSCORE', p .. ':seen', id)
if (not seen) or tonumber(seen) < tonumber(ARGV[3]) then
  redis.call('ZADD', p .. ':seen', ARGV[3], id)
end
return 1
";

/// ARGV: prefix, cutoff ms. Removes seekers last seen before the cutoff; returns how many.
const PRUNE: &str = r"
local p = ARGV[1]
local gone = redis.call('ZRANGEBYSCORE', p .. ':seen', '-inf', '(' .. ARGV[2])
for _, id in ipairs(gone) do remove(p, id) end
return #gone
";

/// ARGV: prefix, decision ttl ms, then per decision: its JSON, its seeker count k, and k
/// pairs (id, ticket JSON as read). Returns 1 or 0 per decision: claimed or not.
const CLAIM: &str = r"
local p, ttl = ARGV[1], ARGV[2]
local results = {}
local i = 3
while i <= #ARGV do
  local decision, k = ARGV[i], tonumber(ARGV[i + 1])
  local first = i + 2
  local ok = 1
  for j = 0, k - 1 do
    local at = first + 2 * j
    if redis.call('GET', p .. ':ticket:' .. ARGV[at]) ~= ARGV[at + 1] then ok = 0 end
  end
  if ok == 1 then
    for j = 0, k - 1 do
      local id = ARGV[first + 2 * j]
      remove(p, id)
      redis.call('SET', p .. ':decision:' .. id, decision, 'PX', ttl)
    end
  end
  results[#results + 1] = ok
  i = first + 2 * k
end
return results
";

/// ARGV: prefix, id. Returns the decision JSON and deletes it, or nil.
const TAKE: &str = r"
local key = ARGV[1] .. ':decision:' .. ARGV[2]
local decision = redis.call('GET', key)
if decision then redis.call('DEL', key) end
return decision
";

/// A queue in Redis, shared by every node using the same URL and prefix. Cheap to clone:
/// clones share one multiplexed connection, which reconnects by itself after Redis restarts
/// (commands fail with [`QueueError::Backend`] meanwhile).
#[derive(Clone)]
pub struct RedisQueue {
    conn: ConnectionManager,
    prefix: String,
    scripts: Arc<Scripts>,
}

struct Scripts {
    join: Script,
    leave: Script,
    heartbeat: Script,
    prune: Script,
    claim: Script,
    take: Script,
}

impl Scripts {
    fn new() -> Self {
        let with_remove = |body: &str| Script::new(&format!("{REMOVE}{body}"));
        Self {
            join: with_remove(JOIN),
            leave: with_remove(LEAVE),
            heartbeat: Script::new(HEARTBEAT),
            prune: with_remove(PRUNE),
            claim: with_remove(CLAIM),
            take: Script::new(TAKE),
        }
    }
}

impl fmt::Debug for RedisQueue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisQueue").field("prefix", &self.prefix).finish_non_exhaustive()
    }
}

impl From<redis::RedisError> for QueueError {
    fn from(e: redis::RedisError) -> Self {
        QueueError::Backend(e.to_string())
    }
}

impl RedisQueue {
    /// Connects to `url` (`redis://host:port/db`), keeping every key under `prefix` (e.g.
    /// `outflank:mm`).
    ///
    /// # Errors
    /// [`QueueError::Backend`] if the URL is invalid or Redis does not answer.
    pub async fn connect(url: &str, prefix: &str) -> QueueResult<Self> {
        let client = redis::Client::open(url)?;
        // Fail fast while Redis is away (one reconnection attempt per failed call, no backoff:
        // the client's jitter would add up to a second): callers retry on their next tick.
        let config = ConnectionManagerConfig::new()
            .set_number_of_retries(0)
            .set_connection_timeout(std::time::Duration::from_secs(1))
            .set_response_timeout(std::time::Duration::from_secs(5));
        let conn = ConnectionManager::new_with_config(client, config).await?;
        Ok(Self { conn, prefix: prefix.to_owned(), scripts: Arc::new(Scripts::new()) })
    }

    /// The key prefix.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// Deletes every key under the prefix (tests, or resetting a deployment).
    ///
    /// # Errors
    /// [`QueueError::Backend`] if Redis fails.
    pub async fn purge(&self) -> QueueResult<()> {
        let mut conn = self.conn.clone();
        let pattern = format!("{}:*", self.prefix);
        let mut cursor: u64 = 0;
        loop {
            let (next, keys): (u64, Vec<String>) = redis::cmd("SCAN")
                .arg(cursor)
                .arg("MATCH")
                .arg(&pattern)
                .arg("COUNT")
                .arg(1000)
                .query_async(&mut conn)
                .await?;
            if !keys.is_empty() {
                let _: i64 = conn.del(keys).await?;
            }
            if next == 0 {
                break;
            }
            cursor = next;
        }
        Ok(())
    }

    /// The waiting tickets of one queue, each with the JSON it was read from.
    async fn read_waiting(&self, queue: QueueKind) -> QueueResult<Vec<(Ticket, String)>> {
        let mut conn = self.conn.clone();
        let ids: Vec<String> =
            conn.zrange(format!("{}:waiting:{}", self.prefix, queue.as_str()), 0, -1).await?;
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let keys: Vec<String> =
            ids.iter().map(|id| format!("{}:ticket:{id}", self.prefix)).collect();
        let raw: Vec<Option<String>> = redis::cmd("MGET").arg(&keys).query_async(&mut conn).await?;
        let mut tickets = Vec::with_capacity(raw.len());
        // A ticket missing here was removed between the two reads: skip it.
        for (key, json) in keys.into_iter().zip(raw) {
            let Some(json) = json else { continue };
            let ticket: Ticket = serde_json::from_str(&json)
                .map_err(|e| QueueError::Corrupt { key, reason: e.to_string() })?;
            tickets.push((ticket, json));
        }
        tickets.sort_by(|(a, _), (b, _)| a.listing_key().cmp(&b.listing_key()));
        Ok(tickets)
    }
}

fn to_json<T: serde::Serialize>(value: &T) -> QueueResult<String> {
    serde_json::to_string(value)
        .map_err(|e| QueueError::Corrupt { key: "(encoding)".into(), reason: e.to_string() })
}

impl Queue for RedisQueue {
    async fn join(&self, ticket: Ticket, now: Millis) -> QueueResult<()> {
        let json = to_json(&ticket)?;
        let mut conn = self.conn.clone();
        let _: i64 = self
            .scripts
            .join
            .arg(&self.prefix)
            .arg(ticket.seeker.as_str())
            .arg(ticket.queue.as_str())
            .arg(ticket.first_pool().map_or(0, |seek| seek.rating))
            .arg(json)
            .arg(now.0)
            .invoke_async(&mut conn)
            .await?;
        Ok(())
    }

    async fn leave(&self, seeker: &SeekerId) -> QueueResult<bool> {
        let mut conn = self.conn.clone();
        let removed: i64 = self
            .scripts
            .leave
            .arg(&self.prefix)
            .arg(seeker.as_str())
            .invoke_async(&mut conn)
            .await?;
        Ok(removed > 0)
    }

    async fn heartbeat(&self, seeker: &SeekerId, now: Millis) -> QueueResult<bool> {
        let mut conn = self.conn.clone();
        let present: i64 = self
            .scripts
            .heartbeat
            .arg(&self.prefix)
            .arg(seeker.as_str())
            .arg(now.0)
            .invoke_async(&mut conn)
            .await?;
        Ok(present > 0)
    }

    async fn waiting(&self, queue: QueueKind) -> QueueResult<Vec<Ticket>> {
        Ok(self.read_waiting(queue).await?.into_iter().map(|(t, _)| t).collect())
    }

    async fn run_pairing(&self, now: Millis, policy: &Policy) -> QueueResult<Vec<Decision>> {
        let mut conn = self.conn.clone();
        let cutoff = now.plus(-policy.heartbeat_ttl_ms);
        let _: i64 =
            self.scripts.prune.arg(&self.prefix).arg(cutoff.0).invoke_async(&mut conn).await?;

        let mut read = Vec::new();
        for queue in QueueKind::ALL {
            read.extend(self.read_waiting(queue).await?);
        }
        let tickets: Vec<Ticket> = read.iter().map(|(t, _)| t.clone()).collect();
        let decisions = pair(&tickets, now, policy);
        if decisions.is_empty() {
            return Ok(decisions);
        }
        let json_of: std::collections::HashMap<&SeekerId, &str> =
            read.iter().map(|(t, json)| (&t.seeker, json.as_str())).collect();

        let mut claim = self.scripts.claim.prepare_invoke();
        claim.arg(&self.prefix).arg(policy.decision_ttl_ms.max(1));
        for decision in &decisions {
            let seekers = decision.seekers();
            claim.arg(to_json(decision)?).arg(seekers.len());
            for seeker in seekers {
                // `pair` only returns seekers it was given, all of which were read.
                let json = json_of.get(seeker).copied().unwrap_or_default();
                claim.arg(seeker.as_str()).arg(json);
            }
        }
        let claimed: Vec<i64> = claim.invoke_async(&mut conn).await?;
        Ok(decisions.into_iter().zip(claimed).filter(|(_, ok)| *ok == 1).map(|(d, _)| d).collect())
    }

    async fn take_decision(&self, seeker: &SeekerId) -> QueueResult<Option<Decision>> {
        let mut conn = self.conn.clone();
        let json: Option<String> = self
            .scripts
            .take
            .arg(&self.prefix)
            .arg(seeker.as_str())
            .invoke_async(&mut conn)
            .await?;
        json.map(|json| {
            serde_json::from_str(&json).map_err(|e| QueueError::Corrupt {
                key: format!("{}:decision:{seeker}", self.prefix),
                reason: e.to_string(),
            })
        })
        .transpose()
    }
}
