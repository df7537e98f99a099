//! Time controls in GGF's `TI` property, as the GGS server writes them: `ini/inc/ext`, three
//! times of the form `[[HH:]MM:]SS` (initial time, increment after each move, extension once
//! the time is spent), e.g. `TI[05:00/00:03/00:00]` for 5+3.
//!
//! GGS clocks have no time that starts afresh every move, so only per-game controls are
//! written; games of seconds or days a move carry their control in the text record alone.
//! Reading takes the per-game clocks that need nothing more: no extension, and no `,`
//! modifiers (GGS's move counts and loss rules), which Outflank's clocks do not have.

use super::TimeControl;

const SECOND_MS: i64 = 1_000;

/// The `TI` value of `control`: `03:00/00:02/00:00` for 3+2; `None` for per-move and daily
/// controls.
pub fn write(control: TimeControl) -> Option<String> {
    match control {
        TimeControl::Fischer { base_ms, increment_ms } => {
            Some(format!("{}/{}/00:00", time(base_ms), time(increment_ms)))
        }
        TimeControl::PerMove { .. } | TimeControl::Daily { .. } => None,
    }
}

/// The control a `TI` value gives, if it is a per-game clock Outflank plays: a positive
/// initial time, any increment, no extension and no modifiers.
pub fn read(text: &str) -> Option<TimeControl> {
    let mut parts = text.trim().split('/');
    let base_ms = parse(parts.next()?)?;
    let increment_ms = parts.next().map_or(Some(0), parse)?;
    let extension_ms = parts.next().map_or(Some(0), parse)?;
    if parts.next().is_some() || base_ms == 0 || extension_ms != 0 {
        return None;
    }
    Some(TimeControl::Fischer { base_ms, increment_ms })
}

/// `MM:SS`, or `HH:MM:SS` from an hour; whole seconds (a part of a second is dropped).
fn time(ms: i64) -> String {
    let seconds = ms.max(0) / SECOND_MS;
    let (hours, minutes, seconds) = (seconds / 3_600, seconds / 60 % 60, seconds % 60);
    if hours > 0 {
        format!("{hours:02}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes:02}:{seconds:02}")
    }
}

/// `[[HH:]MM:]SS` in milliseconds; an empty part is no time.
fn parse(part: &str) -> Option<i64> {
    let part = part.trim();
    if part.is_empty() {
        return Some(0);
    }
    let fields: Vec<&str> = part.split(':').collect();
    if fields.len() > 3 {
        return None;
    }
    fields
        .iter()
        .try_fold(0_i64, |total, field| {
            if field.is_empty() || field.len() > 4 || !field.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let value: i64 = field.parse().ok()?;
            total.checked_mul(60)?.checked_add(value)
        })?
        .checked_mul(SECOND_MS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_game_controls_are_written_as_initial_increment_and_no_extension() {
        assert_eq!(write(TimeControl::fischer(3, 2)).as_deref(), Some("03:00/00:02/00:00"));
        assert_eq!(write(TimeControl::fischer(30, 0)).as_deref(), Some("30:00/00:00/00:00"));
        let long = TimeControl::Fischer { base_ms: 90 * 60_000, increment_ms: 30_000 };
        assert_eq!(write(long).as_deref(), Some("01:30:00/00:30/00:00"));
    }

    #[test]
    fn controls_that_start_afresh_each_move_have_no_ggs_clock() {
        assert_eq!(write(TimeControl::DEFAULT), None);
        assert_eq!(write(TimeControl::Daily { days: 2 }), None);
    }

    #[test]
    fn every_offered_per_game_control_reads_back_as_itself() {
        for control in TimeControl::offered() {
            if let Some(text) = write(control) {
                assert_eq!(read(&text), Some(control), "{text}");
            }
        }
    }

    #[test]
    fn ggs_clocks_are_read_in_their_short_forms() {
        assert_eq!(read("05:00"), Some(TimeControl::fischer(5, 0)));
        assert_eq!(read("15:00//"), Some(TimeControl::fischer(15, 0)));
        assert_eq!(read("1:00:00/5"), Some(TimeControl::fischer(60, 5)));
    }

    #[test]
    fn clocks_with_an_extension_modifiers_or_no_time_are_not_read() {
        for text in ["05:00//02:00", "05:00,L//", "00:00/00:05/", "", "5:xx", "1/2/3/4", "1:2:3:4"]
        {
            assert_eq!(read(text), None, "{text:?}");
        }
    }
}
