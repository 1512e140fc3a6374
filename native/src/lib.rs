//! The PyO3 layer of the native core, and nothing else: it converts positions and results
//! between Python and the core (`program`, `moves`, `key`, `search`). Errors reach Python
//! as `ValueError` with a message; the search runs with the GIL released.
//!
//! No value from Python makes the core panic: a time limit, a budget or a memory cap past
//! what the core can count is clamped to the core's maximum (`MAX_SECONDS`, `MAX_POSITIONS`,
//! `MAX_MEMORY`, the values of `patience/limits.py`), a NaN time limit or a perft depth past
//! `MAX_PERFT_DEPTH` is a `ValueError`. A panic that happens all the same is caught where
//! Python calls in (`guarded`) and reaches Python as a `RuntimeError` with the panic's message,
//! never as pyo3's `PanicException`; the module's panic hook prints nothing.

pub mod beam;
pub mod compile;
pub mod filter;
pub mod guided;
pub mod key;
pub mod moves;
pub mod parts;
pub mod path;
pub mod program;
pub mod search;
pub mod shorten;
pub mod store;
pub mod wire;

use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use moves::{Move, Position, Stacks};
use program::Program;
use search::{Limits, Solved};

type MoveTuple = (i16, i16, i16);

fn position(program: &Program, piles: Vec<Vec<u8>>, stock: Vec<u8>) -> PyResult<Position> {
    if piles.len() != program.slots {
        return Err(PyValueError::new_err(format!(
            "a position of {} needs {} piles, got {}",
            program.id,
            program.slots,
            piles.len()
        )));
    }
    Ok(Position { piles, stock })
}

fn check_move(program: &Program, pos: &Position, m: MoveTuple) -> PyResult<Move> {
    let mv = Move { s: m.0, k: m.1, t: m.2 };
    let ok = if mv.is_discard() {
        let number = (-2 - mv.s as i64) as usize;
        number < program.discard_sets.len() && {
            let discard = &program.discards[program.discard_sets[number].0 as usize];
            mv.k as usize == discard.cards
                && mv.t as usize == discard.target
                && program.discard_piles(mv).iter().all(|&p| !pos.piles[p as usize].is_empty())
        }
    } else if mv.s < 0 {
        mv == moves::DEAL
    } else if mv.is_draw() {
        program.merci.is_some()
            && (mv.s as usize) < program.piles
            && mv.t >= 0
            && (mv.t as usize) < program.piles
            && mv.s != mv.t
            && pos.piles[mv.s as usize].len() >= 2
    } else {
        (mv.s as usize) < program.piles
            && mv.t >= 0
            && (mv.t as usize) < program.piles
            && mv.k >= 1
            && (mv.k as usize) <= pos.piles[mv.s as usize].len()
    };
    if ok {
        Ok(mv)
    } else {
        Err(PyValueError::new_err(format!("{m:?} is not a move of this position")))
    }
}

fn tuple(m: Move) -> MoveTuple {
    (m.s, m.k, m.t)
}

/// A variant's rule program, loaded into the core.
#[pyclass(frozen, module = "patience._native")]
struct Core {
    program: Program,
}

/// The longest time limit, in seconds (`MAX_TIME_LIMIT` in patience/limits.py): a longer
/// one, infinity included, is clamped to it (about 31 years: no search is cut short by it).
pub const MAX_SECONDS: f64 = 1e9;
/// The largest budget of positions (`MAX_POSITIONS`): 2^63 - 1, what SQLite stores.
pub const MAX_POSITIONS: u64 = i64::MAX as u64;
/// The largest memory cap, in bytes (`MAX_MEMORY`): 2^62.
pub const MAX_MEMORY: usize = 1 << 62;
/// The deepest perft (`patience count --depth` allows 64).
pub const MAX_PERFT_DEPTH: u32 = 64;

/// `work()`, with a panic in it turned into a `RuntimeError` naming the panic's message.
fn guarded<T>(work: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    panic::catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|text| text.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string());
        Err(PyRuntimeError::new_err(format!("the native core failed: {message}")))
    })
}

/// When a search given `time_limit` seconds from now must stop: None for no limit (or one
/// past what an `Instant` can hold); a negative limit is 0, one past `MAX_SECONDS` is that.
fn deadline(time_limit: Option<f64>) -> PyResult<Option<Instant>> {
    match time_limit {
        None => Ok(None),
        Some(seconds) if seconds.is_nan() => {
            Err(PyValueError::new_err("time_limit must be a number of seconds, not NaN"))
        }
        Some(seconds) => {
            Ok(Instant::now().checked_add(Duration::from_secs_f64(seconds.clamp(0.0, MAX_SECONDS))))
        }
    }
}

fn limits(time_limit: Option<f64>, max_memory: Option<usize>) -> PyResult<Limits> {
    Ok(Limits {
        moves_kept: None,
        byte_keys: false,
        path_kept: None,
        deadline: deadline(time_limit)?,
        max_memory: max_memory.map(|bytes| bytes.min(MAX_MEMORY)),
        should_stop: None,
    })
}

fn solved<'py>(py: Python<'py>, found: Solved) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    if found.outcome == search::Outcome::Runaway {
        return Err(RunawayError::new_err(moves::RUNAWAY));
    }
    let result = pyo3::types::PyDict::new(py);
    result.set_item("outcome", found.outcome.name())?;
    result.set_item("line", found.line.into_iter().map(tuple).collect::<Vec<_>>())?;
    result.set_item("positions", found.expanded)?;
    result.set_item("stored", found.stored)?;
    result.set_item("bytes", found.bytes)?;
    result.set_item("record_bytes", found.record_bytes)?;
    result.set_item("parts", found.parts)?;
    result.set_item("stack_bytes", found.stack_bytes)?;
    Ok(result)
}

#[pymethods]
impl Core {
    /// `filters=False` loads the program without target filters (every pairing tests
    /// every target): only for the tests that check the filters change nothing.
    #[new]
    #[pyo3(signature = (program, filters = true))]
    fn new(program: &str, filters: bool) -> PyResult<Core> {
        guarded(|| {
            Program::from_json_with(program, filters)
                .map(|program| Core { program })
                .map_err(PyValueError::new_err)
        })
    }

    /// How many pairings (source group, target group) have a target filter.
    #[getter]
    fn filtered_pairings(&self) -> usize {
        let plans = self.program.sources.iter().chain(&self.program.forced_sources);
        plans.flatten().map(|p| p.pairings.iter().filter(|q| q.filter.is_some()).count()).sum()
    }

    /// How many pairings have branch filters (their rule split into branches, some read
    /// by a neighbour of the target: `filter::BranchFilter`).
    #[getter]
    fn branch_pairings(&self) -> usize {
        let plans = self.program.sources.iter().chain(&self.program.forced_sources);
        plans.flatten().map(|p| p.pairings.iter().filter(|q| q.branches.is_some()).count()).sum()
    }

    /// How many two-card discards have a pair filter (`filter::PairFilter`).
    #[getter]
    fn pair_discards(&self) -> usize {
        self.program.discards.iter().filter(|d| d.pair.is_some()).count()
    }

    #[getter]
    fn id(&self) -> String {
        self.program.id.clone()
    }

    fn generate_moves(&self, piles: Vec<Vec<u8>>, stock: Vec<u8>) -> PyResult<Vec<MoveTuple>> {
        guarded(|| {
            let pos = position(&self.program, piles, stock)?;
            let mut out = Vec::new();
            self.program.generate(&pos, &mut out);
            Ok(out.into_iter().map(tuple).collect())
        })
    }

    fn first_forced(&self, piles: Vec<Vec<u8>>, stock: Vec<u8>) -> PyResult<Option<MoveTuple>> {
        guarded(|| {
            let pos = position(&self.program, piles, stock)?;
            Ok(self.program.first_forced(&pos).map(tuple))
        })
    }

    fn is_won(&self, piles: Vec<Vec<u8>>, stock: Vec<u8>) -> PyResult<bool> {
        guarded(|| Ok(self.program.is_won(&position(&self.program, piles, stock)?)))
    }

    fn can_deal(&self, piles: Vec<Vec<u8>>, stock: Vec<u8>) -> PyResult<bool> {
        guarded(|| Ok(self.program.can_deal(&position(&self.program, piles, stock)?)))
    }

    /// Play `move` and take it back: (piles, stock) after the move, and after taking it back.
    #[allow(clippy::type_complexity)]
    fn play_and_take_back(
        &self,
        piles: Vec<Vec<u8>>,
        stock: Vec<u8>,
        mv: MoveTuple,
    ) -> PyResult<((Vec<Vec<u16>>, Vec<u16>), (Vec<Vec<u16>>, Vec<u16>))> {
        guarded(|| {
            let mut pos = position(&self.program, piles, stock)?;
            let mv = check_move(&self.program, &pos, mv)?;
            let mut stacks = Stacks::default();
            let undo = self.program.play(&mut pos, mv, &mut stacks);
            if stacks.runaway {
                return Err(RunawayError::new_err(moves::RUNAWAY));
            }
            let lists = |pos: &Position| {
                let piles =
                    pos.piles.iter().map(|p| p.iter().map(|&c| c as u16).collect()).collect();
                (piles, pos.stock.iter().map(|&c| c as u16).collect())
            };
            let after = lists(&pos);
            self.program.take_back(&mut pos, mv, undo, &mut stacks);
            Ok((after, lists(&pos)))
        })
    }

    fn perft(&self, py: Python<'_>, piles: Vec<Vec<u8>>, stock: Vec<u8>, depth: u32) -> PyResult<u64> {
        if depth > MAX_PERFT_DEPTH {
            return Err(PyValueError::new_err(format!(
                "depth must be a whole number from 0 to {MAX_PERFT_DEPTH}, not {depth}"
            )));
        }
        guarded(|| {
            let mut pos = position(&self.program, piles, stock)?;
            let program = &self.program;
            let mut stacks = Stacks::default();
            let count = py.allow_threads(|| program.perft(&mut pos, depth, &mut stacks));
            if stacks.runaway {
                return Err(RunawayError::new_err(moves::RUNAWAY));
            }
            Ok(count)
        })
    }

    /// `should_stop(positions)` is called (with the GIL) every 1,024 expansions and between
    /// restarts; a true answer, or an exception (raised here afterwards), stops the search.
    /// `moves_kept` (tests only): the moves a search keeps on its move stack before it
    /// drops the children of its shallowest frames (`MOVES_KEPT` in search.rs).
    /// `byte_keys` (tests only): keys one byte a card, as Python's key has them, instead of
    /// the numbered code. `path_kept` (tests only): the positions of the path kept plain
    /// before the shallowest are packed (`PATH_KEPT` in search.rs). `shorten`: a won line
    /// comes back with its detours cut (`shorten.rs`). `guides`: the guided search
    /// runs first where it applies (`guided.rs`).
    #[pyo3(signature = (piles, stock, max_positions, time_limit=None, prove=false, max_memory=None, should_stop=None, beams=true, moves_kept=None, byte_keys=false, path_kept=None, shorten=false, guides=true))]
    #[allow(clippy::too_many_arguments)]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        piles: Vec<Vec<u8>>,
        stock: Vec<u8>,
        max_positions: u64,
        time_limit: Option<f64>,
        prove: bool,
        max_memory: Option<usize>,
        should_stop: Option<PyObject>,
        beams: bool,
        moves_kept: Option<usize>,
        byte_keys: bool,
        path_kept: Option<usize>,
        shorten: bool,
        guides: bool,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        guarded(|| {
            let pos = position(&self.program, piles, stock)?;
            let program = &self.program;
            let max_positions = max_positions.min(MAX_POSITIONS);
            let mut limits = limits(time_limit, max_memory)?;
            limits.moves_kept = moves_kept;
            limits.byte_keys = byte_keys;
            limits.path_kept = path_kept;
            let failure: std::sync::Arc<std::sync::Mutex<Option<PyErr>>> = Default::default();
            if let Some(callback) = should_stop {
                let failure = failure.clone();
                limits.should_stop = Some(Box::new(move |spent: u64| {
                    Python::with_gil(|py| match callback.call1(py, (spent,)).and_then(|r| r.is_truthy(py)) {
                        Ok(answer) => answer,
                        Err(error) => {
                            *failure.lock().expect("one failure") = Some(error);
                            true
                        }
                    })
                }));
            }
            let found = py.allow_threads(|| {
                let mut found = search::solve(program, &pos, max_positions, prove, beams, guides, &limits);
                if shorten && found.outcome == search::Outcome::Won {
                    found.line = shorten::shorten(program, &pos, &found.line, limits.max_memory);
                }
                found
            });
            if let Some(error) = failure.lock().expect("one failure").take() {
                return Err(error);
            }
            solved(py, found)
        })
    }

    /// One layered beam (`beam.rs`), `width` wide: for the tests that compare it with
    /// `patience.solver.beam.Beam`.
    #[pyo3(signature = (piles, stock, width, max_positions, max_memory=None))]
    fn beam<'py>(
        &self,
        py: Python<'py>,
        piles: Vec<Vec<u8>>,
        stock: Vec<u8>,
        width: usize,
        max_positions: u64,
        max_memory: Option<usize>,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        guarded(|| {
            let pos = position(&self.program, piles, stock)?;
            let program = &self.program;
            let (limits, max_positions) = (limits(None, max_memory)?, max_positions.min(MAX_POSITIONS));
            let found =
                py.allow_threads(|| search::beam(program, &pos, width, max_positions, &limits));
            solved(py, found)
        })
    }

    #[pyo3(signature = (piles, stock, max_positions, max_memory=None))]
    fn exhaustive<'py>(
        &self,
        py: Python<'py>,
        piles: Vec<Vec<u8>>,
        stock: Vec<u8>,
        max_positions: u64,
        max_memory: Option<usize>,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        guarded(|| {
            let pos = position(&self.program, piles, stock)?;
            let program = &self.program;
            let (limits, max_positions) = (limits(None, max_memory)?, max_positions.min(MAX_POSITIONS));
            let found =
                py.allow_threads(|| search::exhaustive(program, &pos, max_positions, &limits));
            solved(py, found)
        })
    }

    /// `line` (from the position given) with its detours cut, as `patience.solver.shorten`
    /// cuts it (`shorten.rs`); `depth` 2 tries every two moves in a row too (a hint's line),
    /// and past `time_limit` seconds the rest of the line stays as it is.
    #[pyo3(signature = (piles, stock, line, max_memory=None, depth=1, time_limit=None))]
    #[allow(clippy::too_many_arguments)]
    fn shorten(&self, py: Python<'_>, piles: Vec<Vec<u8>>, stock: Vec<u8>, line: Vec<MoveTuple>,
               max_memory: Option<usize>, depth: usize, time_limit: Option<f64>)
               -> PyResult<Vec<MoveTuple>> {
        guarded(|| {
            let deadline = deadline(time_limit)?;
            let mut pos = position(&self.program, piles, stock)?;
            let root = pos.clone();
            let mut moves = Vec::with_capacity(line.len());
            let mut stacks = Stacks::default();
            for m in line {
                let mv = check_move(&self.program, &pos, m)?;
                self.program.play(&mut pos, mv, &mut stacks);
                if stacks.runaway {
                    return Err(RunawayError::new_err(moves::RUNAWAY));
                }
                stacks.forget_undos();
                moves.push(mv);
            }
            let program = &self.program;
            let max_memory = max_memory.map(|bytes| bytes.min(MAX_MEMORY));
            let shorter =
                py.allow_threads(|| shorten::shorten_to_depth(program, &root, &moves, max_memory,
                                                              depth.clamp(1, 2), deadline));
            Ok(shorter.into_iter().map(tuple).collect())
        })
    }
}

/// For the tests of the boundary only: panics with `message`, inside `guarded`, so that they
/// can see a panic reach Python as a `RuntimeError` (no value makes the core itself panic).
#[pyfunction]
fn _panic_for_tests(message: &str) -> PyResult<()> {
    guarded(|| panic!("{message}"))
}

// Forced moves that went on past the program's `max_forced_moves`: its own type, so that
// Python knows it by its class, not by its words (`patience.native.core_errors` raises the
// kernel's `ForcedMovesError` for it).
pyo3::create_exception!(_native, RunawayError, PyValueError);

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // a panic is caught in `guarded` and its message returned to Python: the default hook
    // would also print it, with a note about backtraces, over the one-line error
    panic::set_hook(Box::new(|_| {}));
    m.add_class::<Core>()?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    m.add("PROGRAM_VERSION", program::PROGRAM_VERSION)?;
    // the core's own bounds on a program's discards, which tests hold equal to limits.py's
    m.add("MAX_DISCARD_CARDS", program::MAX_DISCARD_CARDS)?;
    m.add("MAX_DISCARD_SETS", program::MAX_DISCARD_SETS)?;
    // the count that marks a draw of a buried card in a move, which tests hold equal to
    // patience.moves.DRAW (the core's moves reach Python as tuples)
    m.add("DRAW", moves::DRAW)?;
    m.add("RunawayError", m.py().get_type::<RunawayError>())?;
    Ok(())
}
