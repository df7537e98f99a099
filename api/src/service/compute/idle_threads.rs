//! Threads for background work that must never take CPU from live games: each is put in the
//! lowest scheduling class the system has (Linux's `SCHED_IDLE`), so it runs only when no
//! thread of the server's (or anyone's) wants the core.
//!
//! On Linux each also keeps to one core, counted from the last the process may use: thread 0 on
//! the last, thread 1 on the one before, and so on. So every node on a machine puts its first
//! background thread on the same core. The idle class alone is not enough once background work
//! fills every core (two nodes on two cores, each reviewing): every hop of a move then lands on
//! a core running a review and has to preempt it, and on two nodes the p99 of a move went from
//! 3 ms to 40–60 ms. With the reviews on the last cores, the first ones never run them.
//!
//! Game reviews run here rather than on Tokio's blocking pool, which the live computer searches
//! share: a priority set on a thread of that pool would stay with it for the next search.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, PoisonError, mpsc};

use thiserror::Error;
use tokio::sync::oneshot;

type Job = Box<dyn FnOnce() + Send>;

/// A fixed set of idle-priority threads taking jobs in turn. Cheap to clone.
#[derive(Clone, Debug)]
pub struct IdleThreads {
    jobs: mpsc::Sender<Job>,
}

/// Why a job gave no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("the background job stopped without an answer")]
pub struct JobLost;

impl IdleThreads {
    /// Starts `count` threads (at least one) named `name-0`, `name-1`, … They end when every
    /// handle is dropped.
    ///
    /// # Errors
    /// When the system refuses a new thread.
    pub fn start(name: &str, count: usize) -> std::io::Result<IdleThreads> {
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for index in 0..count.max(1) {
            let queue = Arc::clone(&queue);
            std::thread::Builder::new().name(format!("{name}-{index}")).spawn(move || {
                lower_priority();
                #[cfg(target_os = "linux")]
                keep_to_one_core(index);
                loop {
                    let next = queue.lock().unwrap_or_else(PoisonError::into_inner).recv();
                    let Ok(job) = next else { break };
                    // A job that panics loses its answer, not the thread.
                    let _ = catch_unwind(AssertUnwindSafe(job));
                }
            })?;
        }
        Ok(IdleThreads { jobs })
    }

    /// Runs `work` on one of the threads and waits for its answer.
    ///
    /// # Errors
    /// [`JobLost`] when `work` panicked, or the threads are gone.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, JobLost> {
        let (answer, answered) = oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = answer.send(work());
        });
        self.jobs.send(job).map_err(|_| JobLost)?;
        answered.await.map_err(|_| JobLost)
    }
}

/// Puts the calling thread in the idle scheduling class; where the system has none (or refuses),
/// it keeps its priority, with a log line.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        use thread_priority::unix::{
            NormalThreadSchedulePolicy, ThreadSchedulePolicy, set_thread_priority_and_policy,
            thread_native_id,
        };
        let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
        let priority = thread_priority::ThreadPriority::Min;
        if let Err(error) = set_thread_priority_and_policy(thread_native_id(), priority, idle) {
            tracing::warn!(?error, "a background thread keeps its normal priority");
        }
    }
    #[cfg(not(target_os = "linux"))]
    if let Err(error) =
        thread_priority::set_current_thread_priority(thread_priority::ThreadPriority::Min)
    {
        tracing::warn!(?error, "a background thread keeps its normal priority");
    }
}

/// Keeps the calling thread to the `index`-th core from the last it may run on (wrapping
/// around); nothing to do when it may run on only one.
#[cfg(target_os = "linux")]
fn keep_to_one_core(index: usize) {
    use rustix::thread::{CpuSet, sched_getaffinity, sched_setaffinity};
    let Ok(allowed) = sched_getaffinity(None) else { return };
    let Some(core) = core_from_last(&allowed, index) else { return };
    if allowed.count() <= 1 {
        return;
    }
    let mut only = CpuSet::new();
    only.set(core);
    if let Err(error) = sched_setaffinity(None, &only) {
        tracing::warn!(%error, "a background thread may run on every core");
    }
}

/// The `index`-th core of `cores` counted from the highest (0: the highest), wrapping around.
#[cfg(target_os = "linux")]
fn core_from_last(cores: &rustix::thread::CpuSet, index: usize) -> Option<usize> {
    let count = usize::try_from(cores.count()).ok().filter(|&count| count > 0)?;
    (0..rustix::thread::CpuSet::MAX_CPU).rev().filter(|&core| cores.is_set(core)).nth(index % count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_job_answers_from_a_named_thread() {
        let threads = IdleThreads::start("test-idle", 1).unwrap();
        let name = threads.run(|| std::thread::current().name().map(str::to_owned)).await;
        assert_eq!(name, Ok(Some("test-idle-0".to_owned())));
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn the_threads_run_in_the_idle_scheduling_class() {
        use thread_priority::unix::{
            NormalThreadSchedulePolicy, ThreadSchedulePolicy, thread_native_id,
            thread_schedule_policy_param,
        };
        let threads = IdleThreads::start("test-idle", 1).unwrap();
        let policy = threads.run(|| thread_schedule_policy_param(thread_native_id())).await;
        let (policy, _) = policy.unwrap().unwrap();
        assert_eq!(policy, ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle));
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn the_first_thread_keeps_to_the_last_core_the_process_may_use() {
        use rustix::thread::sched_getaffinity;
        let allowed = sched_getaffinity(None).unwrap();
        let last = core_from_last(&allowed, 0).unwrap();
        let threads = IdleThreads::start("test-idle", 1).unwrap();
        let cores = threads.run(|| sched_getaffinity(None).unwrap()).await.unwrap();
        assert_eq!((cores.count(), core_from_last(&cores, 0)), (1, Some(last)));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn cores_are_counted_from_the_last_and_wrap_around() {
        let mut cores = rustix::thread::CpuSet::new();
        for core in [0, 2, 5] {
            cores.set(core);
        }
        let picked: Vec<_> = (0..4).map(|index| core_from_last(&cores, index)).collect();
        assert_eq!(picked, [Some(5), Some(2), Some(0), Some(5)]);
        assert_eq!(core_from_last(&rustix::thread::CpuSet::new(), 0), None);
    }

    #[tokio::test]
    async fn a_panicking_job_loses_its_answer_and_the_thread_goes_on() {
        let threads = IdleThreads::start("test-idle", 1).unwrap();
        let lost = threads.run(|| -> u32 { panic!("a job's bug") }).await;
        assert_eq!(lost, Err(JobLost));
        assert_eq!(threads.run(|| 7).await, Ok(7));
    }
}
