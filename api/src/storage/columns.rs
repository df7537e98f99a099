//! Reading a row's columns into domain values, every failure naming its column.

use std::fmt;
use std::str::FromStr;

use sqlx::Any;
use sqlx::Row;
use sqlx::any::AnyRow;

use super::{DbError, DbResult};

/// Reads column `column` of `row`, naming it if the value has the wrong type.
pub(super) fn get<'r, T>(row: &'r AnyRow, column: &str) -> DbResult<T>
where
    T: sqlx::Decode<'r, Any> + sqlx::Type<Any>,
{
    row.try_get(column)
        .map_err(|error| DbError::Other(format!("cannot read column {column}: {error}")))
}

/// Parses stored text into a domain value; corrupt data is an error naming the column.
pub(super) fn parse<T>(column: &str, text: &str) -> DbResult<T>
where
    T: FromStr,
    T::Err: fmt::Display,
{
    text.parse().map_err(|error| DbError::Other(format!("column {column} holds {text:?}: {error}")))
}

/// Like [`parse`] for a nullable column.
pub(super) fn parse_opt<T>(column: &str, text: Option<String>) -> DbResult<Option<T>>
where
    T: FromStr,
    T::Err: fmt::Display,
{
    text.map(|text| parse(column, &text)).transpose()
}

/// Converts between Rust integers and stored ones, naming the column when out of range.
pub(super) fn convert<T, U>(column: &str, value: T) -> DbResult<U>
where
    T: Copy + fmt::Display,
    U: TryFrom<T>,
{
    U::try_from(value)
        .map_err(|_| DbError::Other(format!("column {column}: {value} is out of range")))
}
