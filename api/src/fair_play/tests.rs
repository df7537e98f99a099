//! The fair-play statistics as specifications: one behaviour a test.

use super::*;

/// A move with a choice, searched (not exact), untimed.
fn chosen(loss: i32) -> MoveFacts {
    MoveFacts { loss, forced: false, exact: false, think_ms: None }
}

/// A move with a choice in a solved position.
fn exact(loss: i32) -> MoveFacts {
    MoveFacts { exact: true, ..chosen(loss) }
}

/// The only legal move.
fn forced() -> MoveFacts {
    MoveFacts { forced: true, ..chosen(0) }
}

/// A move with a choice that took `ms`.
fn timed(ms: i64) -> MoveFacts {
    MoveFacts { think_ms: Some(ms), ..chosen(0) }
}

/// A game's statistics with the given mean loss and share of best moves (30 moves, no
/// endgame verdict, untimed).
fn game(mean_loss: f64, best_share: f64) -> GameStats {
    GameStats {
        moves: 30,
        mean_loss,
        best_share,
        exact_moves: 0,
        perfect_endgame: None,
        time_cv: None,
    }
}

/// 40 games alternating between a mean loss of 3 and 5 discs and between 40 % and 60 % best
/// moves: mean loss 4 ± 1.01, best moves 50 % ± 10.1 %.
fn band_games() -> Vec<GameStats> {
    (0..40).map(|i| if i % 2 == 0 { game(3.0, 0.4) } else { game(5.0, 0.6) }).collect()
}

fn band() -> Band {
    Band::from_games(1200, 1400, &band_games())
}

/// Rounded to two decimals, for comparing computed figures.
fn two(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

#[test]
fn a_games_figures_are_taken_over_its_moves() {
    let stats = GameStats::from_moves(&[chosen(0), chosen(2), chosen(0), chosen(4)]);
    assert_eq!(
        stats,
        GameStats {
            moves: 4,
            mean_loss: 1.5,
            best_share: 0.5,
            exact_moves: 0,
            perfect_endgame: None,
            time_cv: None,
        }
    );
}

#[test]
fn forced_moves_are_left_out() {
    let with_forced = [forced(), chosen(3), forced(), chosen(0), forced()];
    assert_eq!(GameStats::from_moves(&with_forced), GameStats::from_moves(&with_forced[1..4]));
    assert_eq!(GameStats::from_moves(&with_forced).moves, 2);
}

#[test]
fn a_game_without_a_choice_has_no_figures() {
    let stats = GameStats::from_moves(&[forced(), forced()]);
    assert_eq!((stats.moves, stats.mean_loss, stats.best_share), (0, 0.0, 0.0));
}

#[test]
fn an_endgame_of_only_best_exact_moves_is_perfect() {
    let moves = [chosen(5), exact(0), exact(0), exact(0), exact(0), exact(0)];
    let stats = GameStats::from_moves(&moves);
    assert_eq!((stats.exact_moves, stats.perfect_endgame), (5, Some(true)));
}

#[test]
fn one_exact_move_that_loses_a_disc_spoils_the_endgame() {
    let moves = [exact(0), exact(0), exact(1), exact(0), exact(0)];
    assert_eq!(GameStats::from_moves(&moves).perfect_endgame, Some(false));
}

#[test]
fn fewer_than_five_exact_moves_with_a_choice_give_no_endgame_verdict() {
    assert_eq!(MIN_EXACT_MOVES, 5);
    // Forced moves in the endgame do not count towards the five.
    let moves = [exact(0), exact(0), exact(0), exact(0), MoveFacts { exact: true, ..forced() }];
    let stats = GameStats::from_moves(&moves);
    assert_eq!((stats.exact_moves, stats.perfect_endgame), (4, None));
}

#[test]
fn the_spread_of_move_times_is_their_deviation_over_their_mean() {
    // Mean 200 ms, sample standard deviation 100 ms; the forced move's time is left out.
    let moves = [
        timed(100),
        timed(300),
        timed(100),
        timed(300),
        timed(200),
        MoveFacts { think_ms: Some(9_000), ..forced() },
    ];
    assert_eq!(GameStats::from_moves(&moves).time_cv, Some(0.5));
}

#[test]
fn fewer_than_five_timed_moves_give_no_spread_of_move_times() {
    let moves = [timed(100), timed(300), timed(100), timed(300), chosen(0)];
    assert_eq!(GameStats::from_moves(&moves).time_cv, None);
}

#[test]
fn instant_moves_have_no_spread() {
    assert_eq!(GameStats::from_moves(&[timed(0); 5]).time_cv, Some(0.0));
}

#[test]
fn a_window_averages_the_games_figures() {
    let mut games = vec![game(1.0, 0.5), game(2.0, 0.25), game(3.0, 0.75)];
    games[0].perfect_endgame = Some(true);
    games[1].perfect_endgame = Some(false);
    games[2].time_cv = Some(0.8);
    let window = window(&games);
    assert_eq!(
        window,
        Window {
            games: 3,
            mean_loss: 2.0,
            best_share: 0.5,
            perfect_rate: Some(0.5),
            perfect_games: 2,
            time_cv: Some(0.8),
            timed_games: 1,
        }
    );
}

#[test]
fn a_window_leaves_out_games_without_a_choice() {
    let empty = GameStats::from_moves(&[forced()]);
    let window = window(&[game(2.0, 0.5), empty]);
    assert_eq!((window.games, window.mean_loss, window.best_share), (1, 2.0, 0.5));
}

#[test]
fn a_band_gives_the_mean_and_sample_deviation_of_each_figure() {
    let games = [game(2.0, 0.5), game(4.0, 0.5), game(6.0, 0.5)];
    let band = Band::from_games(1000, 1200, &games);
    assert_eq!(band.mean_loss, Spread { mean: 4.0, sd: 2.0, count: 3 });
    assert_eq!(band.best_share, Spread { mean: 0.5, sd: 0.0, count: 3 });
    assert_eq!(band.perfect_rate, Spread { mean: 0.0, sd: 0.0, count: 0 });
}

#[test]
fn a_bands_perfect_rate_counts_only_games_with_a_verdict() {
    let mut games = vec![game(1.0, 0.5); 3];
    games[0].perfect_endgame = Some(true);
    games[1].perfect_endgame = Some(false);
    let band = Band::from_games(1000, 1200, &games);
    assert_eq!((band.perfect_rate.mean, band.perfect_rate.count), (0.5, 2));
}

#[test]
fn bands_are_200_points_wide_from_multiples_of_200() {
    assert_eq!(band_of(1250.0), (1200, 1400));
    assert_eq!(band_of(1200.0), (1200, 1400));
    assert_eq!(band_of(1199.9), (1000, 1200));
    assert_eq!(band_of(0.0), (0, 200));
}

#[test]
fn fewer_than_ten_recent_games_give_no_assessment() {
    assert_eq!(MIN_GAMES, 10);
    assert_eq!(assess(&vec![game(0.0, 1.0); 9], &band()), None);
}

#[test]
fn a_band_of_fewer_than_thirty_games_gives_no_assessment() {
    assert_eq!(MIN_BAND_GAMES, 30);
    let small = Band::from_games(1200, 1400, &band_games()[..29]);
    assert_eq!(assess(&vec![game(0.0, 1.0); 10], &small), None);
}

#[test]
fn a_player_far_better_than_the_band_is_flagged_with_the_numbers() {
    let assessment = assess(&vec![game(1.0, 0.8); 10], &band()).unwrap();
    assert_eq!((two(assessment.z_loss), two(assessment.z_best)), (9.37, 9.37));
    assert_eq!(assessment.z_perfect, None);
    assert!(assessment.flagged);
    assert_eq!(
        assessment.reasons,
        [
            "last 10 games: 18.7 standard errors better than 1,200–1,400, summed (flagged from 10)",
            "mean loss 1.00 against 4.00 ± 1.01 in 1,200–1,400 (z 9.4)",
            "best moves 80% against 50% ± 10% in 1,200–1,400 (z 9.4)",
        ]
    );
}

#[test]
fn a_player_like_the_band_is_not_flagged() {
    let assessment = assess(&band_games()[..10], &band()).unwrap();
    assert_eq!((assessment.z_loss, assessment.z_best, assessment.score), (0.0, 0.0, 0.0));
    assert!(!assessment.flagged);
    assert!(assessment.reasons.is_empty());
}

#[test]
fn a_player_somewhat_better_than_the_band_is_not_flagged() {
    // Half a disc a move better and 5 points more best moves: 1.6 standard errors each.
    let assessment = assess(&vec![game(3.5, 0.55); 10], &band()).unwrap();
    assert_eq!(two(assessment.score), 3.12);
    assert!(!assessment.flagged);
}

#[test]
fn the_summed_z_scores_flag_from_ten() {
    assert_eq!(FLAG_SCORE, 10.0);
    let above = assess(&vec![game(2.35, 0.665); 10], &band()).unwrap();
    assert_eq!((two(above.score), above.flagged), (10.3, true));
    let below = assess(&vec![game(2.45, 0.655); 10], &band()).unwrap();
    assert_eq!((two(below.score), below.flagged), (9.68, false));
}

#[test]
fn perfect_endgames_the_band_never_plays_flag_on_their_own() {
    let mut band_games = band_games();
    for game in &mut band_games {
        game.perfect_endgame = Some(false);
    }
    let band = Band::from_games(1200, 1400, &band_games);
    let mut recent = band_games[..10].to_vec();
    for game in &mut recent {
        game.perfect_endgame = Some(true);
    }
    let assessment = assess(&recent, &band).unwrap();
    // Ten perfect endgames of ten against none: 1 / (0.3 / √10) standard errors.
    assert_eq!((assessment.z_loss, assessment.z_best), (0.0, 0.0));
    assert_eq!(assessment.z_perfect.map(two), Some(10.54));
    assert!(assessment.flagged);
    assert_eq!(
        assessment.reasons[3],
        "perfect endgames 10 of 10 against 0% ± 0% in 1,200–1,400 (z 10.5)"
    );
}

#[test]
fn move_times_are_shown_but_never_flag() {
    let mut band_games = band_games();
    for game in &mut band_games {
        game.time_cv = Some(1.0);
    }
    let band = Band::from_games(1200, 1400, &band_games);
    let mut recent = band_games[..10].to_vec();
    for game in &mut recent {
        game.time_cv = Some(0.0);
    }
    let assessment = assess(&recent, &band).unwrap();
    assert_eq!((assessment.window.time_cv, assessment.band.time_cv.mean), (Some(0.0), 1.0));
    assert!(!assessment.flagged);
}
