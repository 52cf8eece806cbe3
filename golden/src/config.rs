//! The pipeline configurations of the reduce unit: where its registers sit,
//! its latency and its module name. Plain data, here so that every crate
//! (the hardware, the simulators, the C and Python bindings) reads one
//! definition, and the bindings need not compile the hardware to read a
//! latency.

/// Levels of the log-step tree over the 64 byte slots of a vector: level 1
/// folds byte pairs (8-bit lanes only), level 2 half-word pairs, level 6 is
/// the root.
pub const LEVELS: usize = 6;

/// Where the pipeline registers sit. The input register holds the leaf keys
/// (made from the ports); after it, levels 1 and 2 share a stage: for 16- and
/// 32-bit lanes those levels only place each lane in its node, so a register
/// after level 1 would be a copy of the vector (the redundant input copy a
/// lean datapath has none of). From level 2 on, registers follow every
/// `every`-th level counted back from the root; the register after the root
/// is the output register, with the result formatting before it.
///
/// Only the configurations of [`Config::ALL`] exist: the field is private, so
/// `Config { every: 4 }` does not compile and [`Config::every_nth`] refuses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Config {
    /// 1, 2 or 3: a register after every level (from level 2), every second, every third.
    every: usize,
}

impl Config {
    /// The configurations generated, the default first.
    pub const ALL: [Config; 3] = [Config { every: 1 }, Config { every: 2 }, Config { every: 3 }];
    /// The default: a register after every level.
    pub const DEFAULT: Config = Config::ALL[0];

    /// The configuration with a register after every `every`-th level (1, 2
    /// or 3); `None` for any other number.
    pub const fn every_nth(every: usize) -> Option<Config> {
        match every {
            1..=3 => Some(Config { every }),
            _ => None,
        }
    }

    /// 1, 2 or 3: a register after every level, every second, every third.
    pub const fn every(self) -> usize {
        self.every
    }

    /// Is there a register after tree level `level` (2..=6)? Level 6's is the
    /// output register.
    pub const fn registered_after(self, level: usize) -> bool {
        level >= 2 && level <= LEVELS && (LEVELS - level).is_multiple_of(self.every)
    }

    /// Does level `level` take its compare from its grandchildren (the
    /// hardware's `AheadCompare`) rather than from its children? At levels 4
    /// to 6 when there is no register after the level below, so that the
    /// compare does not wait in the same stage for the level below's own
    /// compare and select. Never in the default configuration, whose levels
    /// each have a stage.
    pub const fn compare_ahead(self, level: usize) -> bool {
        level >= 4 && level <= LEVELS && !self.registered_after(level - 1)
    }

    /// Is there a register between the root (level 6) and the result format?
    /// In the default configuration only, whose levels each have a stage: the
    /// root's add followed by the format's sign extension and saturation
    /// would otherwise be its longest stage. The others keep their latency
    /// and flip-flops.
    pub const fn format_stage(self) -> bool {
        self.every == 1
    }

    /// Register stages from input to output: an input sampled at rising edge
    /// k is on `result_o` / `mask_o` with `out_valid_o` high after edge
    /// k + latency − 1 (the sampling edge counts as the first).
    pub const fn latency(self) -> usize {
        // The input register, and the format's own where there is one.
        let mut n = 1 + self.format_stage() as usize;
        let mut level = 2;
        while level <= LEVELS {
            if self.registered_after(level) {
                n += 1;
            }
            level += 1;
        }
        n
    }

    /// The Verilog module name: `crosslane_reduce` for the default,
    /// `crosslane_reduce_every2` / `_every3` for the others.
    pub fn module(self) -> String {
        if self == Config::DEFAULT {
            "crosslane_reduce".to_string()
        } else {
            format!("crosslane_reduce_every{}", self.every)
        }
    }

    /// The configuration named by [`Config::module`], or by `every1`..`every3`.
    pub fn from_name(name: &str) -> Option<Config> {
        Config::ALL.into_iter().find(|c| {
            c.module() == name
                || name == format!("every{}", c.every)
                || name == format!("crosslane_reduce_every{}", c.every)
        })
    }

    /// Short name: `every1`, `every2`, `every3`.
    pub fn name(self) -> String {
        format!("every{}", self.every)
    }
}

/// The default configuration's latency (see [`Config::latency`]): an input
/// sampled at rising edge k is on the outputs after edge k + LATENCY − 1.
pub const LATENCY: usize = Config::DEFAULT.latency();

#[cfg(test)]
mod tests {
    use super::*;

    fn every(n: usize) -> Config {
        Config::every_nth(n).unwrap()
    }

    #[test]
    fn latencies() {
        assert_eq!(every(1).latency(), 7);
        assert_eq!(every(2).latency(), 4);
        assert_eq!(every(3).latency(), 3);
        assert_eq!(LATENCY, 7);
        assert!(every(3).registered_after(3) && !every(3).registered_after(2));
        assert!(every(2).registered_after(2) && every(2).registered_after(4));
        // Levels compared ahead: those whose children share their stage.
        let ahead = |c: Config| (1..=LEVELS).filter(|&l| c.compare_ahead(l)).collect::<Vec<_>>();
        assert_eq!(ahead(every(1)), Vec::<usize>::new());
        assert_eq!(ahead(every(2)), vec![4, 6]);
        assert_eq!(ahead(every(3)), vec![5, 6]);
        for c in Config::ALL {
            assert!(c.registered_after(6), "the output register");
            assert_eq!(Config::from_name(&c.module()), Some(c));
            assert_eq!(Config::from_name(&c.name()), Some(c));
            assert_eq!(Config::every_nth(c.every()), Some(c));
        }
    }

    #[test]
    fn only_the_generated_configurations_exist() {
        for n in [0, 4, 5, 6, usize::MAX] {
            assert_eq!(Config::every_nth(n), None, "every {n}");
        }
        assert_eq!(Config::from_name("every4"), None);
        assert_eq!(Config::from_name("crosslane_reduce_every1"), Some(Config::DEFAULT));
        assert_eq!(Config::from_name(""), None);
    }
}
