//! Ilmek's SQLite checkpointer database, opened read-only with SQLite itself: the rows of every
//! `<prefix>_checkpoints` table (`thread_id, id, step, data`; the prefix is `ilmek` unless the
//! application chose another). Journals are left alone: Ilmek deletes them after each
//! committed superstep, so they are replay memory, not history.

use std::path::Path;

use rusqlite::{Connection, OpenFlags};
use trellis_spec::Diagnostic;

use crate::codes;
use crate::readers::ilmek_checkpoints::CheckpointRow;

/// The first bytes of every SQLite database file.
pub const MAGIC: &[u8] = b"SQLite format 3\0";

fn unreadable(path: &Path, e: &rusqlite::Error) -> Diagnostic {
    Diagnostic::error(
        codes::UNREADABLE,
        format!("{} cannot be read as an SQLite database: {e}", path.display()),
    )
}

/// The checkpoint rows of the database at `path`.
pub fn load(path: &Path) -> Result<Vec<CheckpointRow>, Diagnostic> {
    let flags =
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI;
    let conn = Connection::open_with_flags(path, flags).map_err(|e| unreadable(path, &e))?;
    let mut tables: Vec<String> = {
        let mut stmt = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%\\_checkpoints' ESCAPE '\\'")
            .map_err(|e| unreadable(path, &e))?;
        let names = stmt.query_map([], |r| r.get::<_, String>(0)).map_err(|e| unreadable(path, &e))?;
        names.filter_map(Result::ok).collect()
    };
    tables.sort();
    if tables.is_empty() {
        return Err(Diagnostic::error(
            codes::UNKNOWN_FORMAT,
            format!(
                "{} is an SQLite database without an Ilmek checkpoints table (<prefix>_checkpoints)",
                path.display()
            ),
        ));
    }
    let mut rows = Vec::new();
    for table in &tables {
        // The name came from sqlite_master and is quoted as an identifier.
        let sql = format!("SELECT thread_id, id, data FROM \"{}\"", table.replace('"', "\"\""));
        let mut stmt = conn.prepare(&sql).map_err(|e| unreadable(path, &e))?;
        let read = stmt
            .query_map([], |r| {
                Ok(CheckpointRow {
                    thread: r.get::<_, String>(0)?,
                    id: r.get::<_, String>(1)?,
                    data: match r.get_ref(2)? {
                        rusqlite::types::ValueRef::Text(t) | rusqlite::types::ValueRef::Blob(t) => {
                            String::from_utf8_lossy(t).into_owned()
                        }
                        _ => String::new(),
                    },
                })
            })
            .map_err(|e| unreadable(path, &e))?;
        for row in read {
            rows.push(row.map_err(|e| unreadable(path, &e))?);
        }
    }
    Ok(rows)
}
