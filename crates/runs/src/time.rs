//! Times as the sources write them, to milliseconds since the Unix epoch: RFC 3339 strings
//! (Weaveflow's nanoseconds, LangSmith's naive UTC), epoch numbers, OTLP's decimal strings of
//! nanoseconds, and LangSmith's `dotted_order` stamps.

use serde_json::Value;

/// An RFC 3339 time (`2026-08-02T09:00:00.12Z`). A time without an offset is taken as UTC,
/// as LangSmith writes them.
pub fn parse_rfc3339(text: &str) -> Option<f64> {
    let text = text.trim();
    let ts = text.parse::<jiff::Timestamp>().ok().or_else(|| {
        let civil = text.parse::<jiff::civil::DateTime>().ok()?;
        jiff::tz::TimeZone::UTC.to_timestamp(civil).ok()
    })?;
    Some(ts.as_microsecond() as f64 / 1000.0)
}

/// A time in milliseconds: an RFC 3339 string, or a number of milliseconds.
pub fn millis(v: &Value) -> Option<f64> {
    match v {
        Value::String(s) => {
            parse_rfc3339(s).or_else(|| s.trim().parse::<f64>().ok().filter(|n| n.is_finite()))
        }
        Value::Number(n) => n.as_f64().filter(|n| n.is_finite()),
        _ => None,
    }
}

/// OTLP's `*TimeUnixNano`: a decimal string (or number) of nanoseconds. Zero means unset.
pub fn from_unix_nanos(v: &Value) -> Option<f64> {
    let nanos: u128 = match v {
        Value::String(s) => s.trim().parse().ok()?,
        Value::Number(n) => n.as_u64().map(u128::from).or_else(|| n.as_f64().map(|f| f as u128))?,
        _ => return None,
    };
    (nanos > 0).then(|| (nanos / 1000) as f64 / 1000.0)
}

/// Formats milliseconds since the epoch as RFC 3339 (UTC, microseconds kept).
pub fn format_ms(ms: f64) -> String {
    let micros = (ms * 1000.0).round() as i64;
    jiff::Timestamp::from_microsecond(micros).map(|t| t.to_string()).unwrap_or_else(|_| format!("{ms} ms"))
}

/// A duration in words: `850 ms`, `4.2 s`, `3 min 5 s`.
pub fn format_duration(ms: f64) -> String {
    if ms < 1.0 {
        format!("{ms:.2} ms")
    } else if ms < 1000.0 {
        format!("{ms:.0} ms")
    } else if ms < 60_000.0 {
        format!("{:.1} s", ms / 1000.0)
    } else {
        let s = (ms / 1000.0).round() as u64;
        format!("{} min {} s", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_with_and_without_offset() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:01.5Z"), Some(1500.0));
        assert_eq!(parse_rfc3339("1970-01-01T00:00:01.5"), Some(1500.0));
        assert_eq!(parse_rfc3339("1970-01-01T01:00:00+01:00"), Some(0.0));
        assert_eq!(parse_rfc3339("2026-08-02T09:00:00.123456789Z").map(|m| m.fract() > 0.4), Some(true));
        assert_eq!(parse_rfc3339("yesterday"), None);
    }

    #[test]
    fn otlp_nanos_are_strings() {
        assert_eq!(from_unix_nanos(&Value::from("1785000000100000000")), Some(1_785_000_000_100.0));
        assert_eq!(from_unix_nanos(&Value::from("0")), None);
        assert_eq!(from_unix_nanos(&Value::from("x")), None);
    }

    #[test]
    fn durations_in_words() {
        assert_eq!(format_duration(850.0), "850 ms");
        assert_eq!(format_duration(4200.0), "4.2 s");
        assert_eq!(format_duration(185_000.0), "3 min 5 s");
    }
}
