//! Work spread over every core: one thread per core, each taking the next
//! item as it finishes one (files differ wildly in size), the results in
//! the items' order. The structural search and the code graph parse their
//! files so, and `smart` weighs its candidate files so after rg's pass.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// `work` applied to every item on as many threads as there are cores
/// (at most one per item), the results in the order of `items`.
pub fn map_on_cores<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    map_on_cores_with(items, || (), |_, item| work(item))
}

/// [`map_on_cores`], each thread working with a state of its own that
/// `start` makes on that thread (a memo, say, which need not be `Send`).
pub fn map_on_cores_with<T: Sync, S, R: Send>(
    items: &[T],
    start: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, &T) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len())
        .max(1);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let mut state = start();
                let mut done = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else {
                        break;
                    };
                    done.push((i, work(&mut state, item)));
                }
                let mut results = results.lock().unwrap_or_else(|e| e.into_inner());
                for (i, result) in done {
                    results[i] = Some(result);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every item is worked on"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_items_order() {
        let items: Vec<u64> = (0..500).collect();
        let squares = map_on_cores(&items, |n| n * n);
        assert_eq!(squares, items.iter().map(|n| n * n).collect::<Vec<_>>());
        assert!(map_on_cores(&[] as &[u8], |b| *b).is_empty());
    }

    #[test]
    fn each_thread_keeps_a_state_of_its_own() {
        let items: Vec<u64> = (0..500).collect();
        // A state that is not Send: the thread that made it, and how many
        // items it has worked on so far.
        let seen = map_on_cores_with(
            &items,
            || {
                (
                    std::thread::current().id(),
                    std::rc::Rc::new(std::cell::Cell::new(0)),
                )
            },
            |(made_on, count), n| {
                count.set(count.get() + 1);
                (n * 2, std::thread::current().id(), *made_on, count.get())
            },
        );
        let doubled: Vec<u64> = seen.iter().map(|s| s.0).collect();
        assert_eq!(doubled, items.iter().map(|n| n * 2).collect::<Vec<_>>());
        let mut by_thread: std::collections::HashMap<_, Vec<u32>> = Default::default();
        for (_, worked_on, made_on, count) in seen {
            assert_eq!(worked_on, made_on);
            by_thread.entry(worked_on).or_default().push(count);
        }
        for counts in by_thread.values_mut() {
            counts.sort_unstable();
            assert_eq!(*counts, (1..=counts.len() as u32).collect::<Vec<_>>());
        }
    }
}
