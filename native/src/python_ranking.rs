//! The PyO3 binding of the card ranking (`rules::ranking`): `services._native.CardRanking`,
//! made from Python's `build_tables` output (`services/games/evaluation/native.py`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::rules::ranking::{self, RankingError};
use crate::rules::ranking_build::{self, Categories, RankingSpec};

#[pyclass(module = "services._native", frozen, name = "CardRanking")]
pub struct CardRanking {
    ranking: ranking::CardRanking,
}

fn refused(error: RankingError) -> PyErr {
    PyValueError::new_err(error.to_string())
}

impl CardRanking {
    /// The tables, for the native rules (`Engine.use_native_rules` takes a copy once).
    pub(crate) fn inner(&self) -> &ranking::CardRanking {
        &self.ranking
    }
}

/// A ranking's definition from Python: the categories' values in the standard order
/// (high card ... straight flush), nine of them.
fn spec(deck_ranks: Vec<u32>, rank_keys: Vec<i64>, categories: Vec<u32>,
        ace_low_straight: Vec<u32>) -> PyResult<RankingSpec> {
    let categories = match categories[..] {
        [high_card, one_pair, two_pair, three_of_a_kind, straight, flush, full_house,
         four_of_a_kind, straight_flush] => Categories {
            high_card, one_pair, two_pair, three_of_a_kind, straight, flush, full_house,
            four_of_a_kind, straight_flush },
        _ => return Err(PyValueError::new_err("expected the values of nine categories")),
    };
    Ok(RankingSpec { deck_ranks, rank_keys, categories, ace_low_straight })
}

#[pymethods]
impl CardRanking {
    /// The ranking whose tables the core builds itself (`ranking_build`): the deck's ranks
    /// (lowest first), the rank keys, the nine categories' values (high card first) and
    /// the ace-low straight's ranks.
    #[staticmethod]
    fn build(deck_ranks: Vec<u32>, rank_keys: Vec<i64>, categories: Vec<u32>,
             ace_low_straight: Vec<u32>) -> PyResult<CardRanking> {
        let spec = spec(deck_ranks, rank_keys, categories, ace_low_straight)?;
        Ok(CardRanking { ranking: ranking::CardRanking::build(&spec).map_err(refused)? })
    }

    /// The tables `build` makes, laid out as `build_tables` gives them (for the tests that
    /// compare the two): card keys, flush codes, and `(sums, codes)` for 5, 6 and 7 cards.
    #[staticmethod]
    #[allow(clippy::type_complexity)] // the tables' own shape, as Python reads it
    fn build_tables(deck_ranks: Vec<u32>, rank_keys: Vec<i64>, categories: Vec<u32>,
                    ace_low_straight: Vec<u32>) -> PyResult<ranking_build::Tables> {
        let spec = spec(deck_ranks, rank_keys, categories, ace_low_straight)?;
        ranking_build::build_tables(&spec).map_err(refused)
    }

    /// `card_keys` (52), `flush_codes` (8,192) and `(sums, codes)` for 5, 6 and 7 cards.
    #[new]
    fn new(card_keys: Vec<i64>, flush_codes: Vec<i64>, five: (Vec<i64>, Vec<i64>),
           six: (Vec<i64>, Vec<i64>), seven: (Vec<i64>, Vec<i64>)) -> PyResult<CardRanking> {
        let by_size = [(&five.0[..], &five.1[..]), (&six.0[..], &six.1[..]),
                       (&seven.0[..], &seven.1[..])];
        let ranking = ranking::CardRanking::new(&card_keys, &flush_codes, by_size).map_err(refused)?;
        Ok(CardRanking { ranking })
    }

    fn eval5(&self, a: u8, b: u8, c: u8, d: u8, e: u8) -> PyResult<u32> {
        self.ranking.rank(&[a, b, c, d, e]).map_err(refused)
    }

    fn eval6(&self, a: u8, b: u8, c: u8, d: u8, e: u8, f: u8) -> PyResult<u32> {
        self.ranking.rank(&[a, b, c, d, e, f]).map_err(refused)
    }

    #[allow(clippy::too_many_arguments)] // one argument a card, as the Python eval7 takes them
    fn eval7(&self, a: u8, b: u8, c: u8, d: u8, e: u8, f: u8, g: u8) -> PyResult<u32> {
        self.ranking.rank(&[a, b, c, d, e, f, g]).map_err(refused)
    }

    /// Best five of 5-7 card indices.
    fn rank(&self, cards: Vec<u8>) -> PyResult<u32> {
        self.ranking.rank(&cards).map_err(refused)
    }
}
