//! A bounded job queue with retry policies.
use std::collections::VecDeque;
use std::fmt;

pub const MAX_ATTEMPTS: u32 = 5;
const BACKOFF_MS: u64 = 250;
pub static QUEUE_NAME: &str = "jobs";
static mut DROPPED: usize = 0;

pub type JobId = u64;

/// What happens to a job that failed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Retry {
    Never,
    After { millis: u64 },
    Exponential(u32),
}

pub struct Job {
    pub id: JobId,
    pub payload: Vec<u8>,
    attempts: u32,
}

pub(crate) union Slot {
    raw: u64,
    signed: i64,
}

pub trait Handler {
    type Error: fmt::Debug;
    const NAME: &'static str;

    fn handle(&mut self, job: &Job) -> Result<(), Self::Error>;

    fn retry(&self, _job: &Job) -> Retry {
        Retry::Never
    }
}

pub struct Queue<H: Handler> {
    jobs: VecDeque<Job>,
    handler: H,
}

impl<H: Handler> Queue<H> {
    pub const CAPACITY: usize = 1024;

    pub fn new(handler: H) -> Self {
        Queue { jobs: VecDeque::new(), handler }
    }

    pub fn push(&mut self, id: JobId, payload: Vec<u8>) -> bool {
        if self.jobs.len() >= Self::CAPACITY {
            return false;
        }
        self.jobs.push_back(Job { id, payload, attempts: 0 });
        true
    }

    fn run_one(&mut self) -> Option<JobId>
    where
        H::Error: fmt::Display,
    {
        fn should_retry(attempts: u32) -> bool {
            attempts < MAX_ATTEMPTS
        }
        let mut job = self.jobs.pop_front()?;
        if self.handler.handle(&job).is_err() && should_retry(job.attempts) {
            job.attempts += 1;
            self.jobs.push_back(job);
        }
        None
    }
}

impl fmt::Display for Job {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "job #{} ({} bytes)", self.id, self.payload.len())
    }
}

macro_rules! job {
    ($id:expr) => {
        Job { id: $id, payload: Vec::new(), attempts: 0 }
    };
}

pub mod metrics {
    pub struct Counter(pub u64);

    pub fn record(counter: &mut Counter) {
        counter.0 += 1;
    }

    fn reset(counter: &mut Counter) {
        counter.0 = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_respects_capacity() {
        let job = job!(7);
        assert_eq!(job.attempts, 0);
    }
}
