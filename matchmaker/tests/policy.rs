//! The pure pairing policy: fairness, widening, no one twice, rematches, stability, fallback.

use std::collections::{HashMap, HashSet};

use outflank_matchmaker::{
    Decision, Millis, Policy, PoolId, PoolSeek, QueueKind, SeekerId, Ticket, pair,
};

const T0: Millis = Millis(1_700_000_000_000);

fn quick(id: &str, rating: i32) -> Ticket {
    Ticket::new(id, QueueKind::Quick, rating, T0)
}

fn at(ms: i64) -> Millis {
    T0.plus(ms)
}

/// The pairs of a result as sorted id pairs, in decision order.
fn pairs(decisions: &[Decision]) -> Vec<(String, String)> {
    decisions
        .iter()
        .filter_map(|d| match d {
            Decision::Match { black, white, .. } => {
                let (a, b) = (black.to_string(), white.to_string());
                Some(if a < b { (a, b) } else { (b, a) })
            }
            Decision::Computer { .. } => None,
        })
        .collect()
}

fn computers(decisions: &[Decision]) -> Vec<(String, i32)> {
    decisions
        .iter()
        .filter_map(|d| match d {
            Decision::Computer { seeker, rating, .. } => Some((seeker.to_string(), *rating)),
            Decision::Match { .. } => None,
        })
        .collect()
}

fn p(a: &str, b: &str) -> (String, String) {
    (a.to_owned(), b.to_owned())
}

#[test]
fn the_gap_widens_along_the_documented_curve() {
    let policy = Policy::default();
    assert_eq!(policy.allowed_gap(0), 100);
    assert_eq!(policy.allowed_gap(999), 124);
    assert_eq!(policy.allowed_gap(1_000), 125);
    assert_eq!(policy.allowed_gap(5_000), 225);
    assert_eq!(policy.allowed_gap(10_000), 350);
    assert_eq!(policy.allowed_gap(12_000), 400);
    assert_eq!(policy.allowed_gap(60_000), 400);
    assert_eq!(policy.allowed_gap(-5_000), 100, "a join in the future counts as no wait");
    let unbounded = Policy { max_gap: None, ..Policy::default() };
    assert_eq!(unbounded.allowed_gap(60_000), 1_600);
    assert!(unbounded.allowed_gap(i64::MAX) > 0, "no overflow");
    let negative = Policy { initial_gap: -50, gap_growth_per_second: 0, ..Policy::default() };
    assert_eq!(negative.allowed_gap(1_000), 0, "never below zero");
}

#[test]
fn closest_ratings_are_paired_first() {
    let tickets = [quick("a", 1500), quick("b", 1520), quick("c", 1580)];
    let decisions = pair(&tickets, T0, &Policy::default());
    assert_eq!(pairs(&decisions), vec![p("a", "b")]);

    // 1010 and 1090 are closer to each other's neighbours than to each other.
    let tickets = [quick("w", 1000), quick("x", 1010), quick("y", 1090), quick("z", 1100)];
    let decisions = pair(&tickets, T0, &Policy::default());
    assert_eq!(pairs(&decisions), vec![p("w", "x"), p("y", "z")]);
}

#[test]
fn equally_close_pairs_go_to_the_longest_waiter_then_by_id() {
    let old = Ticket::new("old", QueueKind::Quick, 1500, at(-3_000));
    let tickets = [quick("m", 1500), quick("n", 1500), old];
    let decisions = pair(&tickets, T0, &Policy::default());
    assert_eq!(pairs(&decisions), vec![p("m", "old")], "old waited longest; m < n");

    let tickets = [quick("c", 1500), quick("b", 1500), quick("a", 1500)];
    assert_eq!(pairs(&pair(&tickets, T0, &Policy::default())), vec![p("a", "b")]);
}

#[test]
fn the_gap_widens_with_waiting() {
    let tickets = [quick("a", 1500), quick("b", 1700)];
    let policy = Policy::default();
    assert!(pair(&tickets, T0, &policy).is_empty(), "200 apart, ±100 on arrival");
    assert!(pair(&tickets, at(3_999), &policy).is_empty(), "gap 199 after 3.999 s");
    assert_eq!(pairs(&pair(&tickets, at(4_000), &policy)), vec![p("a", "b")], "gap 200 at 4 s");
}

#[test]
fn a_newcomer_is_held_to_their_own_narrow_gap() {
    let veteran = Ticket::new("vet", QueueKind::Quick, 1500, at(-10_000)); // gap 350
    let newcomer = Ticket::new("new", QueueKind::Quick, 1800, T0); // gap 100
    let tickets = [veteran, newcomer];
    let policy = Policy::default();
    assert!(pairs(&pair(&tickets, T0, &policy)).is_empty(), "300 > min(350, 100)");
    assert!(pairs(&pair(&tickets, at(7_999), &policy)).is_empty());
    assert_eq!(pairs(&pair(&tickets, at(4_000), &policy)).len(), 0);
    // After 8 s the newcomer's gap is 300 (the veteran's is capped at 400).
    assert_eq!(pairs(&pair(&tickets, at(8_000), &policy)), vec![p("new", "vet")]);
}

#[test]
fn queues_never_mix() {
    let tickets = [
        Ticket::new("q", QueueKind::Quick, 1500, at(-20_000)),
        Ticket::new("r", QueueKind::Ranked, 1500, at(-20_000)),
    ];
    let decisions = pair(&tickets, T0, &Policy::default());
    assert!(pairs(&decisions).is_empty());
    assert_eq!(decisions.len(), 2, "both get the computer instead");
    for d in &decisions {
        let expected =
            if d.involves(&SeekerId::from("q")) { QueueKind::Quick } else { QueueKind::Ranked };
        assert_eq!(d.queue(), expected);
    }

    let tickets = [
        Ticket::new("r1", QueueKind::Ranked, 1500, T0),
        Ticket::new("q1", QueueKind::Quick, 1500, T0),
        Ticket::new("r2", QueueKind::Ranked, 1510, T0),
        Ticket::new("q2", QueueKind::Quick, 1510, T0),
    ];
    let decisions = pair(&tickets, T0, &Policy::default());
    assert_eq!(pairs(&decisions), vec![p("q1", "q2"), p("r1", "r2")]);
    assert_eq!(decisions[1].queue(), QueueKind::Ranked);
}

#[test]
fn previous_opponents_are_not_paired_again_while_someone_else_fits() {
    let a = quick("a", 1500).with_last_opponent("b");
    let b = quick("b", 1500).with_last_opponent("a");
    let c = quick("c", 1550);
    let decisions = pair(&[a.clone(), b.clone(), c], T0, &Policy::default());
    assert_eq!(pairs(&decisions), vec![p("a", "c")], "a-b is closer but a rematch");

    // Only one side remembering is enough.
    let b_forgot = quick("b", 1500);
    let c = quick("c", 1550);
    let decisions = pair(&[a.clone(), b_forgot, c], T0, &Policy::default());
    assert_eq!(pairs(&decisions), vec![p("a", "c")]);

    // Alone together: they play again.
    let decisions = pair(&[a.clone(), b.clone()], T0, &Policy::default());
    assert_eq!(pairs(&decisions), vec![p("a", "b")]);

    // Someone waiting who does not fit either of them does not block the rematch.
    let far = quick("far", 2500);
    let decisions = pair(&[a, b, far], T0, &Policy::default());
    assert_eq!(pairs(&decisions), vec![p("a", "b")]);
}

#[test]
fn a_blocked_seeker_is_never_paired_with_the_blocker_even_alone_together() {
    let a = quick("a", 1500).avoiding([SeekerId::from("b")]);
    let b = quick("b", 1500);
    assert_eq!(pairs(&pair(&[a.clone(), b.clone()], at(600_000), &Policy::default())), vec![]);
    // Either side's block is enough, and a third seeker is still paired with one of them.
    let c = quick("c", 1550);
    assert_eq!(pairs(&pair(&[b, a, c], T0, &Policy::default())), vec![p("a", "c")]);
}

#[test]
fn a_block_outweighs_a_rematch_when_nobody_else_fits() {
    let a = quick("a", 1500).with_last_opponent("b");
    let b = quick("b", 1500).with_last_opponent("a").avoiding([SeekerId::from("a")]);
    assert_eq!(pairs(&pair(&[a, b], T0, &Policy::default())), vec![]);
}

#[test]
fn the_computer_takes_over_exactly_at_the_configured_wait() {
    let policy = Policy { computer_after_ms: 3_000, ..Policy::default() };
    let tickets = [quick("alone", 1500), Ticket::new("far", QueueKind::Quick, 2500, at(1_000))];
    assert!(pair(&tickets, at(2_999), &policy).is_empty());
    let decisions = pair(&tickets, at(3_000), &policy);
    assert_eq!(
        decisions,
        vec![Decision::Computer {
            queue: QueueKind::Quick,
            pool: PoolId::default(),
            seeker: SeekerId::from("alone"),
            rating: 1500,
        }]
    );
    assert_eq!(computers(&pair(&tickets, at(4_000), &policy)).len(), 2);
    // A pair found at the threshold is a pair, not two computer games.
    let tickets = [quick("a", 1500), quick("b", 1510)];
    assert_eq!(pairs(&pair(&tickets, at(3_000), &policy)), vec![p("a", "b")]);
    assert!(computers(&pair(&tickets, at(3_000), &policy)).is_empty());
}

#[test]
fn a_computer_decision_carries_the_seekers_rating() {
    let policy = Policy { computer_after_ms: 0, ..Policy::default() };
    let tickets = [quick("e", 900), quick("h", 2000)];
    let mut got = computers(&pair(&tickets, T0, &policy));
    got.sort();
    assert_eq!(got, vec![("e".into(), 900), ("h".into(), 2000)]);
}

#[test]
fn a_seeker_is_never_in_two_decisions_even_with_duplicate_tickets() {
    let tickets = [
        quick("a", 1500),
        quick("a", 1500),
        Ticket::new("a", QueueKind::Ranked, 1500, T0),
        quick("b", 1500),
        Ticket::new("b", QueueKind::Ranked, 1500, at(-30_000)),
    ];
    let decisions = pair(&tickets, T0, &Policy::default());
    assert_eq!(decisions.len(), 1, "{decisions:?}");
    // b's earliest ticket (ranked, long wait) wins; a's earliest is quick: nobody fits b there.
    let decisions = pair(&tickets, at(20_000), &Policy::default());
    let seen: Vec<&SeekerId> = decisions.iter().flat_map(Decision::seekers).collect();
    assert_eq!(seen.len(), seen.iter().collect::<HashSet<_>>().len());
}

#[test]
fn extreme_ratings_do_not_overflow() {
    let policy = Policy { max_gap: None, gap_growth_per_second: i32::MAX, ..Policy::default() };
    let tickets = [
        Ticket::new("lo", QueueKind::Quick, i32::MIN, Millis(i64::MIN)),
        Ticket::new("hi", QueueKind::Quick, i32::MAX, Millis(i64::MIN)),
    ];
    assert_eq!(pairs(&pair(&tickets, Millis(i64::MAX), &policy)), vec![p("hi", "lo")]);
    assert_eq!(pair(&tickets, Millis(i64::MIN), &Policy::default()).len(), 0);
}

#[test]
fn colours_are_deterministic_and_balanced() {
    let mut black_first = 0;
    for i in 0..1000 {
        let tickets = [quick(&format!("p{i}"), 1500), quick(&format!("q{i}"), 1500)];
        let once = pair(&tickets, at(i), &Policy::default());
        let again = pair(&[tickets[1].clone(), tickets[0].clone()], at(i), &Policy::default());
        assert_eq!(once, again);
        if let [Decision::Match { black, .. }] = once.as_slice() {
            if black.as_str().starts_with('p') {
                black_first += 1;
            }
        } else {
            panic!("expected one match: {once:?}");
        }
    }
    assert!((420..=580).contains(&black_first), "{black_first} of 1000");
}

/// A small deterministic generator for the randomised tests.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> i64 {
        i64::try_from(self.next() % n).unwrap_or(0)
    }
}

fn random_tickets(rng: &mut Rng, n: usize) -> Vec<Ticket> {
    (0..n)
        .map(|i| {
            let queue = if rng.below(4) == 0 { QueueKind::Ranked } else { QueueKind::Quick };
            // One to three of three pools, in any order; few distinct ratings and join times,
            // so ties are common.
            let mut names = vec!["blitz", "daily", "rapid"];
            let first = usize::try_from(rng.below(3)).unwrap_or(0);
            names.rotate_left(first);
            names.truncate(1 + usize::try_from(rng.below(3)).unwrap_or(0));
            let pools = names
                .into_iter()
                .map(|name| {
                    PoolSeek::new(name, 1200 + 25 * i32::try_from(rng.below(24)).unwrap_or(0))
                })
                .collect();
            let mut t = Ticket::seeking(format!("s{i:03}"), queue, pools, at(-500 * rng.below(40)));
            if rng.below(3) == 0 {
                t = t.with_last_opponent(format!("s{:03}", rng.below(n as u64)));
            }
            t
        })
        .collect()
}

/// The policy by brute force: pool by pool in name order, every fitting pair of seekers not
/// yet paired, sorted, taken greedily.
fn reference(tickets: &[Ticket], now: Millis, policy: &Policy) -> Vec<(String, String)> {
    let mut result = Vec::new();
    for queue in QueueKind::ALL {
        let mut taken: HashSet<&SeekerId> = HashSet::new();
        for name in ["blitz", "daily", "rapid"] {
            let pool = PoolId::from(name);
            let mut s: Vec<(&Ticket, i32)> = tickets
                .iter()
                .filter(|t| t.queue == queue && !taken.contains(&t.seeker))
                .filter_map(|t| Some((t, t.rating_in(&pool)?)))
                .collect();
            s.sort_by(|(a, ra), (b, rb)| {
                (ra, a.joined_at, &a.seeker).cmp(&(rb, b.joined_at, &b.seeker))
            });
            let rematch = |a: &Ticket, b: &Ticket| {
                a.last_opponent.as_ref() == Some(&b.seeker)
                    || b.last_opponent.as_ref() == Some(&a.seeker)
            };
            for phase in [false, true] {
                let mut cands = Vec::new();
                for i in 0..s.len() {
                    for j in i + 1..s.len() {
                        let ((a, ra), (b, rb)) = (s[i], s[j]);
                        if policy.compatible(a, b, &pool, now) && rematch(a, b) == phase {
                            let diff = (i64::from(ra) - i64::from(rb)).abs();
                            let early = a.joined_at.min(b.joined_at);
                            cands.push((diff, early, i, j));
                        }
                    }
                }
                cands.sort();
                for (_, _, i, j) in cands {
                    let (a, b) = (&s[i].0.seeker, &s[j].0.seeker);
                    if !taken.contains(a) && !taken.contains(b) {
                        taken.insert(a);
                        taken.insert(b);
                        let (a, b) = (a.to_string(), b.to_string());
                        result.push(if a < b { (a, b) } else { (b, a) });
                    }
                }
            }
        }
    }
    result
}

#[test]
fn greedy_pairing_matches_the_brute_force_definition() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let policy = Policy { computer_after_ms: 12_000, ..Policy::default() };
    for round in 0..300 {
        let n = usize::try_from(rng.below(40)).unwrap_or(0);
        let tickets = random_tickets(&mut rng, n);
        let now = at(rng.below(10_000));
        let decisions = pair(&tickets, now, &policy);
        assert_eq!(pairs(&decisions), reference(&tickets, now, &policy), "round {round}");

        let mut count: HashMap<&SeekerId, usize> = HashMap::new();
        for seeker in decisions.iter().flat_map(Decision::seekers) {
            *count.entry(seeker).or_default() += 1;
        }
        assert!(count.values().all(|&c| c == 1), "round {round}: someone twice");
        for t in &tickets {
            let paired = count.contains_key(&t.seeker);
            let waited = now.since(t.joined_at) >= policy.computer_after_ms;
            if waited {
                assert!(paired, "round {round}: {} waited and got nothing", t.seeker);
            }
        }
    }
}

#[test]
fn the_same_input_in_any_order_gives_the_same_output() {
    let mut rng = Rng(42);
    for _ in 0..50 {
        let mut tickets = random_tickets(&mut rng, 60);
        let now = at(rng.below(20_000));
        let first = pair(&tickets, now, &Policy::default());
        tickets.reverse();
        assert_eq!(pair(&tickets, now, &Policy::default()), first);
        let k = usize::try_from(rng.below(60)).unwrap_or(0);
        tickets.rotate_left(k);
        assert_eq!(pair(&tickets, now, &Policy::default()), first);
    }
}

#[test]
fn everyone_at_one_rating_pairs_in_order_of_arrival() {
    let tickets: Vec<Ticket> = (0..1000)
        .map(|i| Ticket::new(format!("s{i:04}"), QueueKind::Quick, 1500, at(-i)))
        .collect();
    let decisions = pair(&tickets, T0, &Policy::default());
    assert_eq!(decisions.len(), 500);
    // Longest waiters (highest i) first.
    assert_eq!(pairs(&decisions)[0], p("s0998", "s0999"));
}

fn seeking(id: &str, pools: &[(&str, i32)]) -> Ticket {
    let pools = pools.iter().map(|&(pool, rating)| PoolSeek::new(pool, rating)).collect();
    Ticket::seeking(id, QueueKind::Ranked, pools, T0)
}

/// The pools of the matches of a result, in decision order.
fn match_pools(decisions: &[Decision]) -> Vec<String> {
    decisions
        .iter()
        .filter(|d| matches!(d, Decision::Match { .. }))
        .map(|d| d.pool().to_string())
        .collect()
}

#[test]
fn seekers_in_different_pools_are_never_paired() {
    let tickets = [seeking("a", &[("blitz", 1500)]), seeking("b", &[("rapid", 1500)])];
    assert!(pair(&tickets, at(10_000), &Policy::default()).is_empty());
}

#[test]
fn a_match_is_made_in_the_pool_both_seek_at_their_ratings_there() {
    // Close in rapid, far apart in blitz.
    let tickets = [
        seeking("a", &[("blitz", 1200), ("rapid", 1600)]),
        seeking("b", &[("blitz", 1900), ("rapid", 1620)]),
    ];
    let decisions = pair(&tickets, T0, &Policy::default());
    assert_eq!(pairs(&decisions), vec![p("a", "b")]);
    assert_eq!(match_pools(&decisions), vec!["rapid"]);
}

#[test]
fn a_seeker_in_two_pools_is_paired_once_the_first_pool_in_name_order_first() {
    // b seeks blitz and rapid; a only blitz, c only rapid: b goes to blitz, c stays.
    let tickets = [
        seeking("a", &[("blitz", 1500)]),
        seeking("b", &[("rapid", 1500), ("blitz", 1500)]),
        seeking("c", &[("rapid", 1500)]),
    ];
    let decisions = pair(&tickets, T0, &Policy::default());
    assert_eq!(pairs(&decisions), vec![p("a", "b")]);
    assert_eq!(match_pools(&decisions), vec!["blitz"]);
    assert!(computers(&decisions).is_empty());
}

#[test]
fn a_seeker_left_over_in_one_pool_is_paired_in_the_next() {
    // a and b fit in blitz; c, also seeking blitz, is left over there and meets d in rapid.
    let tickets = [
        seeking("a", &[("blitz", 1500)]),
        seeking("b", &[("blitz", 1510)]),
        seeking("c", &[("blitz", 1540), ("rapid", 1700)]),
        seeking("d", &[("rapid", 1690)]),
    ];
    let decisions = pair(&tickets, T0, &Policy::default());
    assert_eq!(pairs(&decisions), vec![p("a", "b"), p("c", "d")]);
    assert_eq!(match_pools(&decisions), vec!["blitz", "rapid"]);
}

#[test]
fn a_computer_game_is_in_the_seekers_first_pool_at_their_rating_there() {
    let policy = Policy { computer_after_ms: 0, ..Policy::default() };
    let tickets = [seeking("a", &[("rapid", 1700), ("blitz", 1300)])];
    assert_eq!(
        pair(&tickets, T0, &policy),
        vec![Decision::Computer {
            queue: QueueKind::Ranked,
            pool: PoolId::from("rapid"),
            seeker: SeekerId::from("a"),
            rating: 1700,
        }]
    );
}

#[test]
fn a_ticket_without_pools_is_never_decided() {
    let policy = Policy { computer_after_ms: 0, ..Policy::default() };
    let tickets = [seeking("a", &[]), seeking("b", &[]), seeking("c", &[("blitz", 1500)])];
    assert_eq!(computers(&pair(&tickets, at(60_000), &policy)), vec![("c".into(), 1500)]);
}
