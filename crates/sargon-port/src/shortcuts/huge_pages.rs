//! The evaluation cache's table in 2 MB pages, where the system gives them.
//!
//! The table is 32 MB, and a scoring looks up one slot of it at random. In the system's
//! usual 4 KiB pages that is 8,192 pages, more than the processor's address translation
//! cache holds, so nearly every lookup first walks the page tables: with the entry
//! prefetched, that walk was what the lookup waited for (the prefetch instruction took
//! 7-8% of the port's samples in `perf`). In 2 MB pages the table is 16.
//!
//! Linux gives an application 2 MB pages for its memory when asked (`madvise` with
//! `MADV_HUGEPAGE`; with transparent huge pages set to `madvise`, as is common, only
//! then) for memory aligned to 2 MB. The port has no dependencies, so the call is made
//! directly (the system call, on x86-64 Linux; elsewhere nothing is asked). The advice
//! changes no byte of the memory, and if the system refuses it the table works the same
//! in small pages.

/// The size of a huge page.
pub(super) const HUGE_PAGE: usize = 2 << 20;

/// Ask the system to back the `len` bytes at `at` (a multiple of [`HUGE_PAGE`]) with huge
/// pages. The system's answer: 0 when it took the advice (or `None` where it is not
/// asked), else the error number, negated.
pub(super) fn advise(at: *const u8, len: usize) -> Option<isize> {
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    {
        /// madvise(2) on x86-64 Linux, and its advice MADV_HUGEPAGE.
        const SYS_MADVISE: isize = 28;
        const MADV_HUGEPAGE: usize = 14;
        let answer: isize;
        // SAFETY: madvise with MADV_HUGEPAGE is only advice about how to back the given
        // range (the process's own, allocated memory): it reads and writes no memory of
        // the program's and cannot change what the range holds. The system call clobbers
        // only RCX and R11 (and RAX, its answer), as declared.
        unsafe {
            std::arch::asm!(
                "syscall",
                inlateout("rax") SYS_MADVISE => answer,
                in("rdi") at,
                in("rsi") len,
                in("rdx") MADV_HUGEPAGE,
                lateout("rcx") _,
                lateout("r11") _,
                options(nostack),
            );
        }
        Some(answer)
    }
    #[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
    {
        let _ = (at, len);
        None
    }
}

/// A table of `len` copies of `empty`, its memory advised to be backed by huge pages
/// (the huge pages that lie wholly inside it: all but its first and last bit).
pub(super) fn table<T: Copy>(len: usize, empty: T) -> Vec<T> {
    let mut table: Vec<T> = Vec::with_capacity(len);
    let at = table.as_ptr() as usize;
    let first = at.next_multiple_of(HUGE_PAGE);
    let end = (at + len * std::mem::size_of::<T>()) / HUGE_PAGE * HUGE_PAGE;
    // Advice before the first write: the pages are made as they are first touched.
    if end > first {
        advise(first as *const u8, end - first);
    }
    table.resize(len, empty);
    table
}

#[cfg(test)]
mod tests {
    use super::{advise, table, HUGE_PAGE};

    /// The system call is madvise: it takes the advice for a range aligned to a huge page
    /// and refuses a range that is not page-aligned (error 22, an invalid argument).
    #[test]
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    fn the_advice_is_madvise() {
        let memory: Vec<u8> = Vec::with_capacity(3 * HUGE_PAGE);
        let at = (memory.as_ptr() as usize).next_multiple_of(HUGE_PAGE);
        assert_eq!(advise(at as *const u8, HUGE_PAGE), Some(0));
        assert_eq!(advise((at + 1) as *const u8, HUGE_PAGE), Some(-22));
    }

    /// Where transparent huge pages are on (for all memory or for memory so advised), a
    /// table is backed by huge pages, as the process's memory map says.
    #[test]
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    fn a_table_is_in_huge_pages_where_the_system_has_them() {
        let mode = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
            .unwrap_or_default();
        if !(mode.contains("[always]") || mode.contains("[madvise]")) {
            eprintln!("skipped: transparent huge pages are off ({mode:?})");
            return;
        }
        let t = table(4 * HUGE_PAGE / 128, [0u8; 128]);
        // The mapping that holds the table's first whole huge page (the advice made it
        // one of its own), and its huge pages in kB.
        let at = (t.as_ptr() as usize).next_multiple_of(HUGE_PAGE);
        let smaps = std::fs::read_to_string("/proc/self/smaps").expect("smaps");
        let mut inside = false;
        let mut huge_kb = None;
        for line in smaps.lines() {
            if let Some((range, _)) = line.split_once(' ')
                && let Some((start, end)) = range.split_once('-')
                && let (Ok(start), Ok(end)) = (
                    usize::from_str_radix(start, 16),
                    usize::from_str_radix(end, 16),
                )
            {
                inside = (start..end).contains(&at);
                continue;
            }
            if let (true, Some(kb)) = (inside, line.strip_prefix("AnonHugePages:")) {
                huge_kb = kb
                    .trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<usize>()
                    .ok();
            }
        }
        let huge_kb = huge_kb.expect("the table's mapping");
        assert!(huge_kb >= 2048, "{huge_kb} kB in huge pages");
    }
}
