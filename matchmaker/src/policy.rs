//! The pairing policy: a pure function from the waiting seekers and the time to decisions.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::ticket::{Decision, Millis, PoolId, PoolSeek, QueueKind, SeekerId, Ticket};

/// How the matchmaker decides, and how long the queues keep things.
///
/// The allowed rating gap of a seeker who has waited `w` milliseconds is
///
/// ```text
/// gap(w) = min(initial_gap + gap_growth_per_second * w / 1000, max_gap)     (never below 0)
/// ```
///
/// With the defaults: ±100 on arrival, ±225 after 5 s, ±350 after 10 s, ±400 from 12 s on;
/// at 15 s a seeker still alone is handed to the computer. Two seekers fit when they wait in
/// the same pool of the same queue and their ratings there differ by at most the *smaller* of
/// their two gaps, so a newcomer is never matched further away than their own narrow window
/// allows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Policy {
    /// The gap on arrival.
    pub initial_gap: i32,
    /// How much the gap grows per second of waiting (linearly, by the millisecond).
    pub gap_growth_per_second: i32,
    /// The largest gap, or `None` for no limit.
    pub max_gap: Option<i32>,
    /// After this long without an opponent, a seeker gets the computer.
    pub computer_after_ms: i64,
    /// Queues drop a seeker whose last heartbeat is older than this.
    pub heartbeat_ttl_ms: i64,
    /// Queues keep a decision for the seeker's node to take for this long.
    pub decision_ttl_ms: i64,
}

impl Default for Policy {
    fn default() -> Self {
        Self {
            initial_gap: 100,
            gap_growth_per_second: 25,
            max_gap: Some(400),
            computer_after_ms: 15_000,
            heartbeat_ttl_ms: 10_000,
            decision_ttl_ms: 60_000,
        }
    }
}

impl Policy {
    /// The allowed rating gap after waiting `wait_ms` milliseconds (see the curve above).
    pub fn allowed_gap(&self, wait_ms: i64) -> i64 {
        let wait_ms = wait_ms.max(0);
        let grown = i64::from(self.gap_growth_per_second).saturating_mul(wait_ms) / 1000;
        let gap = i64::from(self.initial_gap).saturating_add(grown);
        let gap = match self.max_gap {
            Some(max) => gap.min(i64::from(max)),
            None => gap,
        };
        gap.max(0)
    }

    /// Whether two tickets may be paired in `pool` at `now`, previous opponents aside: both
    /// wait there, in the same queue, and their ratings there are close enough.
    pub fn compatible(&self, a: &Ticket, b: &Ticket, pool: &PoolId, now: Millis) -> bool {
        let (Some(ra), Some(rb)) = (a.rating_in(pool), b.rating_in(pool)) else {
            return false;
        };
        let diff = (i64::from(ra) - i64::from(rb)).abs();
        a.queue == b.queue
            && a.seeker != b.seeker
            && !a.shuns(b)
            && diff <= self.allowed_gap(now.since(a.joined_at))
            && diff <= self.allowed_gap(now.since(b.joined_at))
    }
}

/// Decides who plays whom at `now`. Pure: same input (in any order), same output.
///
/// - Seekers are paired within one pool of one queue. A seeker waiting in several pools is
///   tried in each, pools in name order, and the first pairing wins: once paired, they are out
///   of the later pools.
/// - Within a pool, pairs are formed greedily, closest ratings (in that pool) first; among
///   equally close pairs the one with the longest waiter goes first, then the lower position in
///   (rating, join time, id) order.
/// - Each seeker appears in at most one decision (duplicate tickets of one seeker count once:
///   the earliest).
/// - Two seekers either of whom avoids the other (a block) are never paired.
/// - Two previous opponents (either's `last_opponent` names the other) are only paired once no
///   other fitting opponent is left for either of them in that pool.
/// - Seekers still alone after waiting `computer_after_ms` or more get [`Decision::Computer`]
///   in their first pool, with their rating there, for a computer of about their strength.
/// - Colours are drawn from a hash of the two ids and `now`: random to players, exact in tests.
///
/// Matches come first (in the order they were formed: quick queue before ranked, pools in name
/// order), then the computer games.
pub fn pair(tickets: &[Ticket], now: Millis, policy: &Policy) -> Vec<Decision> {
    let mut unique: Vec<&Ticket> = tickets.iter().filter(|t| !t.pools.is_empty()).collect();
    unique.sort_by(|a, b| {
        (&a.seeker, a.joined_at, a.queue, &a.pools, &a.last_opponent, &a.avoid).cmp(&(
            &b.seeker,
            b.joined_at,
            b.queue,
            &b.pools,
            &b.last_opponent,
            &b.avoid,
        ))
    });
    unique.dedup_by(|later, first| later.seeker == first.seeker);

    let mut matches = Vec::new();
    let mut computers = Vec::new();
    for queue in QueueKind::ALL {
        let waiting: Vec<&Ticket> = unique.iter().copied().filter(|t| t.queue == queue).collect();
        let mut pools: Vec<&PoolId> =
            waiting.iter().flat_map(|t| t.pools.iter().map(|seek| &seek.pool)).collect();
        pools.sort();
        pools.dedup();
        let mut paired: HashSet<SeekerId> = HashSet::new();
        for pool in pools {
            let seekers: Vec<Seeker> = waiting
                .iter()
                .filter(|t| !paired.contains(&t.seeker))
                .filter_map(|&ticket| Some(Seeker { ticket, rating: ticket.rating_in(pool)? }))
                .collect();
            let formed = pair_pool(seekers, queue, pool, now, policy);
            for decision in &formed {
                paired.extend(decision.seekers().into_iter().cloned());
            }
            matches.extend(formed);
        }
        let mut alone: Vec<(&Ticket, &PoolSeek)> = waiting
            .iter()
            .filter(|t| !paired.contains(&t.seeker))
            .filter(|t| now.since(t.joined_at) >= policy.computer_after_ms)
            .filter_map(|&t| Some((t, t.first_pool()?)))
            .collect();
        alone.sort_by(|(a, sa), (b, sb)| {
            (sa.rating, a.joined_at, &a.seeker).cmp(&(sb.rating, b.joined_at, &b.seeker))
        });
        computers.extend(alone.into_iter().map(|(ticket, seek)| Decision::Computer {
            queue,
            pool: seek.pool.clone(),
            seeker: ticket.seeker.clone(),
            rating: seek.rating,
        }));
    }
    matches.extend(computers);
    matches
}

/// A seeker as one pool sees them: the ticket, and the rating in that pool.
#[derive(Debug, Clone, Copy)]
struct Seeker<'a> {
    ticket: &'a Ticket,
    rating: i32,
}

/// Pairs the seekers of one pool of one queue; returns the matches in the order formed.
fn pair_pool(
    mut seekers: Vec<Seeker>,
    queue: QueueKind,
    pool: &PoolId,
    now: Millis,
    policy: &Policy,
) -> Vec<Decision> {
    seekers.sort_by(|a, b| {
        (a.rating, a.ticket.joined_at, &a.ticket.seeker).cmp(&(
            b.rating,
            b.ticket.joined_at,
            &b.ticket.seeker,
        ))
    });
    let mut m = Matcher::new(&seekers, now, policy);
    let n = seekers.len();

    // Phase 1: closest first, previous opponents excluded.
    let mut heap = BinaryHeap::new();
    for i in 0..n {
        if let Some(j) = m.next_candidate(i) {
            heap.push(Reverse(m.key(i, j)));
        }
    }
    let mut pairs = Vec::new();
    while let Some(Reverse(key)) = heap.pop() {
        let (owner, other) = (key.lo, key.hi);
        if m.taken[owner] {
            continue;
        }
        if m.taken[other] {
            if let Some(j) = m.next_candidate(owner) {
                heap.push(Reverse(m.key(owner, j)));
            }
            continue;
        }
        m.take(owner);
        m.take(other);
        pairs.push((key.lo, key.hi));
    }

    // Phase 2: previous opponents, now that nobody else fits either of them.
    let index: HashMap<&SeekerId, usize> =
        seekers.iter().enumerate().map(|(i, s)| (&s.ticket.seeker, i)).collect();
    let mut rematches: Vec<PairKey> = Vec::new();
    for (i, seeker) in seekers.iter().enumerate() {
        let Some(&j) = seeker.ticket.last_opponent.as_ref().and_then(|o| index.get(o)) else {
            continue;
        };
        if !m.taken[i]
            && !m.taken[j]
            && policy.compatible(seeker.ticket, seekers[j].ticket, pool, now)
        {
            rematches.push(m.key(i.min(j), i.max(j)));
        }
    }
    rematches.sort();
    rematches.dedup();
    for key in rematches {
        if !m.taken[key.lo] && !m.taken[key.hi] {
            m.take(key.lo);
            m.take(key.hi);
            pairs.push((key.lo, key.hi));
        }
    }

    pairs
        .into_iter()
        .map(|(a, b)| {
            let (a, b) = (&seekers[a].ticket.seeker, &seekers[b].ticket.seeker);
            let (first, second) = if a < b { (a, b) } else { (b, a) };
            let hash = pair_hash(first, second, now);
            let (black, white) = if hash & 1 == 1 { (first, second) } else { (second, first) };
            Decision::Match {
                queue,
                pool: pool.clone(),
                black: black.clone(),
                white: white.clone(),
                pairing: hash >> 1,
            }
        })
        .collect()
}

/// A candidate pair's place in the greedy order (smallest first). The pair belongs to `lo`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct PairKey {
    diff: i64,
    earliest_join: i64,
    lo: usize,
    hi: usize,
}

/// Where one seeker's search for partners placed after them has got to.
#[derive(Debug, Clone, Copy)]
struct Cursor {
    /// Next position to try among seekers of the same rating.
    centre: usize,
    /// The higher-rated group being tried, and the next position in it.
    right: Option<(usize, usize)>,
}

/// State of the greedy pairing of one pool, sorted by (rating, join time, id).
///
/// Each pair belongs to its lower-placed seeker, who lists their pairs lazily in greedy order
/// (rating difference, then longest wait, then position) and keeps only the best in a heap,
/// skipping taken seekers with a "next free position" forest. That gives the same result as
/// sorting every fitting pair, in about O(n log n) for usual queues, instead of enumerating all
/// fitting pairs (millions with 10,000 waiting).
#[derive(Debug)]
struct Matcher<'a> {
    seekers: &'a [Seeker<'a>],
    gaps: Vec<i64>,
    /// Group (distinct rating) of each position, and each group's position range.
    group_of: Vec<usize>,
    groups: Vec<(usize, usize)>,
    cursors: Vec<Cursor>,
    taken: Vec<bool>,
    /// `next_free[x]`: a position ≥ x from which to look for the next free one (`n`: none).
    next_free: Vec<usize>,
}

impl<'a> Matcher<'a> {
    fn new(seekers: &'a [Seeker<'a>], now: Millis, policy: &Policy) -> Self {
        let n = seekers.len();
        let gaps =
            seekers.iter().map(|s| policy.allowed_gap(now.since(s.ticket.joined_at))).collect();
        let mut group_of = Vec::with_capacity(n);
        let mut groups: Vec<(usize, usize)> = Vec::new();
        for (i, t) in seekers.iter().enumerate() {
            match groups.last_mut() {
                Some(last) if seekers[last.0].rating == t.rating => last.1 = i + 1,
                _ => groups.push((i, i + 1)),
            }
            group_of.push(groups.len() - 1);
        }
        let cursors = group_of
            .iter()
            .enumerate()
            .map(|(i, &g)| Cursor {
                centre: i + 1,
                right: (g + 1 < groups.len()).then(|| (g + 1, groups[g + 1].0)),
            })
            .collect();
        Self {
            seekers,
            gaps,
            group_of,
            groups,
            cursors,
            taken: vec![false; n],
            next_free: (0..=n).collect(),
        }
    }

    fn rating(&self, i: usize) -> i64 {
        i64::from(self.seekers[i].rating)
    }

    /// The first free position ≥ `x` (`n` if none), compressing the path walked.
    fn find_free(&mut self, x: usize) -> usize {
        let mut root = x;
        while self.next_free[root] != root {
            root = self.next_free[root];
        }
        let mut at = x;
        while self.next_free[at] != root {
            let next = self.next_free[at];
            self.next_free[at] = root;
            at = next;
        }
        root
    }

    fn take(&mut self, i: usize) {
        self.taken[i] = true;
        self.next_free[i] = i + 1;
    }

    fn key(&self, owner: usize, other: usize) -> PairKey {
        let (a, b) = (self.seekers[owner].ticket, self.seekers[other].ticket);
        PairKey {
            diff: (self.rating(owner) - self.rating(other)).abs(),
            earliest_join: a.joined_at.0.min(b.joined_at.0),
            lo: owner.min(other),
            hi: owner.max(other),
        }
    }

    /// Whether `i` and `j` were each other's last opponent.
    fn rematch(&self, i: usize, j: usize) -> bool {
        let (a, b) = (self.seekers[i].ticket, self.seekers[j].ticket);
        a.last_opponent.as_ref() == Some(&b.seeker) || b.last_opponent.as_ref() == Some(&a.seeker)
    }

    /// Whether `i` or `j` will not be paired with the other (a block).
    fn shunned(&self, i: usize, j: usize) -> bool {
        self.seekers[i].ticket.shuns(self.seekers[j].ticket)
    }

    /// `i`'s next partner placed after `i`, in greedy order: free, fitting both gaps, not a
    /// rematch. Within one rating group later positions come later in greedy order too (they
    /// joined later), so walking positions upwards, group by group, keeps the order.
    fn next_candidate(&mut self, i: usize) -> Option<usize> {
        let own_end = self.groups[self.group_of[i]].1;
        // Same rating first (difference 0).
        while self.cursors[i].centre < own_end {
            let p = self.find_free(self.cursors[i].centre);
            if p >= own_end {
                self.cursors[i].centre = own_end;
                break;
            }
            self.cursors[i].centre = p + 1;
            if !self.rematch(i, p) && !self.shunned(i, p) {
                return Some(p);
            }
        }
        // Then higher ratings, outwards, within `i`'s own gap.
        while let Some((g, pos)) = self.cursors[i].right {
            let (start, end) = self.groups[g];
            let diff = self.rating(start) - self.rating(i);
            if diff > self.gaps[i] {
                self.cursors[i].right = None;
                return None;
            }
            let p = self.find_free(pos);
            if p >= end {
                self.cursors[i].right = (g + 1 < self.groups.len()).then(|| (g + 1, end));
                continue;
            }
            self.cursors[i].right = Some((g, p + 1));
            if diff <= self.gaps[p] && !self.rematch(i, p) && !self.shunned(i, p) {
                return Some(p);
            }
        }
        None
    }
}

/// A well-mixed hash of the two ids and the time (FNV-1a, then a SplitMix64 finish): its low
/// bit draws the colours, the rest names the match.
fn pair_hash(first: &SeekerId, second: &SeekerId, now: Millis) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let bytes = first
        .as_str()
        .bytes()
        .chain([0xff])
        .chain(second.as_str().bytes())
        .chain([0xff])
        .chain(now.0.to_le_bytes());
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^= h >> 31;
    h
}
