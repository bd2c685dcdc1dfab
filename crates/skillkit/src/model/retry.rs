//! When to try a request again and how long to wait first: 429 and 5xx replies and dropped
//! connections are retried, honouring `Retry-After`, else backing off exponentially.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The longest exponential backoff.
pub(crate) const BACKOFF_CAP: Duration = Duration::from_secs(30);

/// The longest `Retry-After` honoured: a provider that asks for a longer wait gets no retry (its
/// reply is returned as it is), rather than a run that hangs for an hour.
pub(crate) const RETRY_AFTER_MAX: Duration = Duration::from_secs(120);

/// How often and how patiently to retry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: u32,
    /// The first backoff; each next one doubles, up to [`BACKOFF_CAP`].
    pub base: Duration,
}

impl RetryPolicy {
    /// The wait before retry number `retry` (0 for the first) when the reply said nothing.
    pub fn backoff(&self, retry: u32) -> Duration {
        let factor = 1u32.checked_shl(retry.min(16)).unwrap_or(u32::MAX);
        self.base.saturating_mul(factor).min(BACKOFF_CAP)
    }
}

/// Whether a reply of this status is worth another try.
pub(crate) fn retryable(status: u16) -> bool {
    status == 429 || (500..600).contains(&status)
}

/// A `Retry-After` value as a wait from `now`: whole seconds, or an HTTP date (IMF-fixdate,
/// `Sun, 06 Nov 1994 08:49:37 GMT`; a date in the past is no wait). `None` when unreadable.
pub(crate) fn retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = UNIX_EPOCH + Duration::from_secs(http_date(value)?);
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

/// Seconds since the Unix epoch of an IMF-fixdate such as `Sun, 06 Nov 1994 08:49:37 GMT`.
fn http_date(value: &str) -> Option<u64> {
    let parts: Vec<&str> = value.split_whitespace().collect();
    let [weekday, day, month, year, time, "GMT"] = parts.as_slice() else { return None };
    if !weekday.ends_with(',') {
        return None;
    }
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let month = MONTHS.iter().position(|m| m == month)? as u64 + 1;
    let day: u64 = day.parse().ok().filter(|d| (1..=31).contains(d))?;
    let year: u64 = year.parse().ok().filter(|y| *y >= 1970)?;
    let hms: Vec<u64> = time.split(':').map(|p| p.parse().ok()).collect::<Option<_>>()?;
    let [h, m, s] = hms.as_slice() else { return None };
    if *h > 23 || *m > 59 || *s > 60 {
        return None;
    }
    Some(days_since_epoch(year, month, day) * 86_400 + h * 3600 + m * 60 + s)
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (year ≥ 1970).
fn days_since_epoch(year: u64, month: u64, day: u64) -> u64 {
    let leap = |y: u64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let years: u64 = (1970..year).map(|y| if leap(y) { 366 } else { 365 }).sum();
    const BEFORE: [u64; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
    let month_index = (month - 1).min(11) as usize;
    let extra = u64::from(month > 2 && leap(year));
    years + BEFORE[month_index] + extra + day - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let policy = RetryPolicy { max_retries: 4, base: Duration::from_secs(1) };
        let waits: Vec<u64> = (0..7).map(|r| policy.backoff(r).as_secs()).collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 30, 30]);
        assert_eq!(policy.backoff(u32::MAX), BACKOFF_CAP);
    }

    #[test]
    fn retry_after_seconds_or_date() {
        let now = UNIX_EPOCH + Duration::from_secs(784_111_777); // Sun, 06 Nov 1994 08:49:37 GMT
        assert_eq!(retry_after("3", now), Some(Duration::from_secs(3)));
        assert_eq!(retry_after("Sun, 06 Nov 1994 08:49:47 GMT", now), Some(Duration::from_secs(10)));
        assert_eq!(retry_after("Sun, 06 Nov 1994 08:49:00 GMT", now), Some(Duration::ZERO));
        assert_eq!(retry_after("Thu, 29 Feb 2024 00:00:00 GMT", UNIX_EPOCH), Some(Duration::from_secs(1_709_164_800)));
        for bad in ["soon", "-1", "Sun, 06 Nov 1994 25:00:00 GMT", "06 Nov 1994 08:49:37 GMT", ""] {
            assert_eq!(retry_after(bad, now), None, "{bad}");
        }
    }

    #[test]
    fn which_statuses_are_retried() {
        for status in [429, 500, 502, 503, 529] {
            assert!(retryable(status), "{status}");
        }
        for status in [200, 400, 401, 403, 404, 422] {
            assert!(!retryable(status), "{status}");
        }
    }
}
