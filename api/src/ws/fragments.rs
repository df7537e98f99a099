//! A message sent in several frames (a first frame, continuations, a last), put back together
//! under the same size cap as a single frame, so that a fragmented message is read like any
//! other instead of being dropped.

use actix_http::ws::Item;
use actix_web::web::BytesMut;

use super::protocol::MAX_FRAME_BYTES;

/// Why a fragmented message was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FragmentError {
    /// Its frames add up to more than [`MAX_FRAME_BYTES`].
    TooLarge,
    /// It is binary, or its text is not UTF-8.
    NotText,
    /// A continuation came with no message begun, or a message began inside another.
    OutOfOrder,
}

/// The frames of the message being received.
#[derive(Debug, Default)]
pub struct Fragments {
    /// `Some` while a message is open: its bytes so far, and whether it is text.
    open: Option<(BytesMut, bool)>,
}

impl Fragments {
    /// Adds one frame of a fragmented message: the whole text once its last frame has come.
    ///
    /// # Errors
    /// [`FragmentError`]; the message is dropped, and the next first frame starts afresh.
    pub fn push(&mut self, item: Item) -> Result<Option<String>, FragmentError> {
        let last = matches!(item, Item::Last(_));
        let (bytes, first_is_text) = match item {
            Item::FirstText(bytes) => (bytes, Some(true)),
            Item::FirstBinary(bytes) => (bytes, Some(false)),
            Item::Continue(bytes) | Item::Last(bytes) => (bytes, None),
        };
        match (first_is_text, &mut self.open) {
            (Some(_), Some(_)) | (None, None) => {
                self.open = None;
                return Err(FragmentError::OutOfOrder);
            }
            (Some(text), None) => self.open = Some((BytesMut::new(), text)),
            (None, Some(_)) => {}
        }
        let (buffer, text) = self.open.as_mut().expect("a message is open");
        if buffer.len() + bytes.len() > MAX_FRAME_BYTES {
            self.open = None;
            return Err(FragmentError::TooLarge);
        }
        buffer.extend_from_slice(&bytes);
        if !last {
            return Ok(None);
        }
        let text = *text;
        let (buffer, _) = self.open.take().expect("a message is open");
        if !text {
            return Err(FragmentError::NotText);
        }
        String::from_utf8(buffer.to_vec()).map(Some).map_err(|_| FragmentError::NotText)
    }
}

#[cfg(test)]
mod tests {
    use actix_web::web::Bytes;

    use super::*;

    fn text(part: &'static str) -> Bytes {
        Bytes::from_static(part.as_bytes())
    }

    #[test]
    fn a_text_in_three_frames_is_read_whole() {
        let mut fragments = Fragments::default();
        assert_eq!(fragments.push(Item::FirstText(text(r#"{"type":"#))), Ok(None));
        assert_eq!(fragments.push(Item::Continue(text(r#""pi"#))), Ok(None));
        let whole = fragments.push(Item::Last(text(r#"ng"}"#)));
        assert_eq!(whole, Ok(Some(r#"{"type":"ping"}"#.to_owned())));
    }

    #[test]
    fn frames_over_the_cap_together_are_refused_and_the_next_message_starts_afresh() {
        let mut fragments = Fragments::default();
        let half = Bytes::from(vec![b' '; MAX_FRAME_BYTES / 2 + 1]);
        assert_eq!(fragments.push(Item::FirstText(half.clone())), Ok(None));
        assert_eq!(fragments.push(Item::Continue(half)), Err(FragmentError::TooLarge));
        assert_eq!(fragments.push(Item::Last(text("}"))), Err(FragmentError::OutOfOrder));
        assert_eq!(fragments.push(Item::FirstText(text("{}"))), Ok(None));
        assert_eq!(fragments.push(Item::Last(text(""))), Ok(Some("{}".to_owned())));
    }

    #[test]
    fn a_binary_message_in_frames_is_refused() {
        let mut fragments = Fragments::default();
        assert_eq!(fragments.push(Item::FirstBinary(text("ab"))), Ok(None));
        assert_eq!(fragments.push(Item::Last(text("cd"))), Err(FragmentError::NotText));
    }

    #[test]
    fn a_message_begun_inside_another_is_refused() {
        let mut fragments = Fragments::default();
        assert_eq!(fragments.push(Item::FirstText(text("{"))), Ok(None));
        assert_eq!(fragments.push(Item::FirstText(text("{"))), Err(FragmentError::OutOfOrder));
    }

    #[test]
    fn text_split_inside_a_character_is_read_whole() {
        let mut fragments = Fragments::default();
        let bytes = "é".as_bytes();
        assert_eq!(fragments.push(Item::FirstText(Bytes::copy_from_slice(&bytes[..1]))), Ok(None));
        let whole = fragments.push(Item::Last(Bytes::copy_from_slice(&bytes[1..])));
        assert_eq!(whole, Ok(Some("é".to_owned())));
    }
}
