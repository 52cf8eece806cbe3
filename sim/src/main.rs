//! The `crosslane` command line.

use clap::{Parser, Subcommand};
use crosslane_sim::engine::{self, EngineKind};
use crosslane_sim::{protocol, verify};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{Read, Write};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "crosslane",
    version,
    about = "The CrossLaneReduce unit: golden model, hardware, simulators"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Answer eval-protocol cases (JSON Lines on stdin) on one engine.
    Eval {
        #[arg(long, value_enum, default_value = "golden")]
        engine: EngineKind,
    },
    /// Run every engine against the golden model and print a table.
    Verify {
        /// Seed of the random campaign.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Random cases per op for the golden model.
        #[arg(long, default_value_t = 2000)]
        per_op: usize,
    },
}

fn progress_bar(total: u64) -> ProgressBar {
    // Campaigns that finish well within a second get no bar.
    if total < 50_000 {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{msg:>10} [{bar:40}] {pos}/{len} cases ({eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

fn eval(kind: EngineKind) -> Result<(), String> {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| format!("crosslane eval: cannot read the input: {e}"))?;
    let mut engine = engine::open(kind).map_err(|e| format!("crosslane eval: {e}"))?;
    let lines = protocol::answer(&input, |cases| engine.run(cases))
        .map_err(|e| format!("crosslane eval: {e}"))?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in lines {
        writeln!(out, "{line}")
            .map_err(|e| format!("crosslane eval: cannot write the output: {e}"))?;
    }
    out.flush()
        .map_err(|e| format!("crosslane eval: cannot write the output: {e}"))
}

fn run_verify(seed: u64, per_op: usize) -> Result<bool, String> {
    let cases = verify::cases(seed, per_op);
    let mut report = verify::Report::default();
    let bar = progress_bar(cases.len() as u64);
    bar.set_message("golden");
    verify::verify_golden(&cases, &mut report, &|n| bar.inc(n));
    bar.finish_and_clear();
    for kind in EngineKind::ALL
        .into_iter()
        .filter(|k| *k != EngineKind::Golden)
    {
        match engine::open(kind) {
            Ok(mut e) => {
                let bar = progress_bar(cases.len() as u64);
                bar.set_message(kind.name());
                verify::verify_engine(e.as_mut(), &cases, &mut report, &|n| bar.inc(n))
                    .map_err(|e| format!("crosslane verify: {e}"))?;
                bar.finish_and_clear();
            }
            Err(e) => println!("{:<10} skipped: {e}", kind.name()),
        }
    }
    print!("{}", report.render());
    let bad = report.total_mismatches();
    let total: usize = report.rows.iter().map(|r| r.cases).sum();
    println!("verify: {total} cases checked, {bad} mismatches (seed {seed})");
    Ok(bad == 0)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Eval { engine } => eval(engine).map(|_| true),
        Command::Verify { seed, per_op } => run_verify(seed, per_op),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(msg) => {
            eprintln!("{msg}");
            ExitCode::from(2)
        }
    }
}
