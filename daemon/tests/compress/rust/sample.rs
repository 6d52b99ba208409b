//! Rate limiter for outgoing requests.
//!
//! Inner doc comments are comments too: stripped at level 1.

use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Requests allowed per window.
pub const DEFAULT_LIMIT: u32 = 100;
const BANNER: &str = "// not a comment /* nor this */";
static RAW: &str = r#"a "raw" string with // slashes
  and trailing spaces   
"#;

/// A fixed-window counter.
#[derive(Debug, Clone)]
pub struct Window {
    start: Instant, // when the window opened
    count: u32,
}

pub enum Decision {
    Allow,
    /* wait this long */ Deny(Duration),
}

pub trait Limiter<K: std::hash::Hash + Eq> {
    fn check(&mut self, key: K) -> Decision;

    /// Default method with a body: elided at level 2.
    fn check_all(&mut self, keys: Vec<K>) -> Vec<Decision> {
        keys.into_iter().map(|k| self.check(k)).collect()
    }
}

pub struct FixedWindow<K> {
    limit: u32,
    span: Duration,
    windows: HashMap<K, Window>,
}

impl<K: std::hash::Hash + Eq + Clone> FixedWindow<K> {
    pub fn new(limit: u32, span: Duration) -> Self {
        // Nested items vanish with the body.
        fn helper() -> u32 {
            DEFAULT_LIMIT
        }
        let _ = helper();
        Self { limit, span, windows: HashMap::new() }
    }

    pub fn len(&self) -> usize { self.windows.len() }
}

impl<K: std::hash::Hash + Eq + Clone> Limiter<K> for FixedWindow<K> {
    fn check(&mut self, key: K) -> Decision {
        let now = Instant::now();
        let window = self.windows.entry(key).or_insert(Window { start: now, count: 0 });
        if now.duration_since(window.start) > self.span {
            *window = Window { start: now, count: 0 };
        }
        window.count += 1;
        if window.count <= self.limit { Decision::Allow } else { Decision::Deny(self.span) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allows_up_to_limit() {
        let mut limiter = FixedWindow::new(2, Duration::from_secs(1));
        assert!(matches!(limiter.check("a"), Decision::Allow));
    }
}
