//! Pairing units into tables, pure: the Swiss pairing (by score then
//! rating, no repeat opponents where avoidable, byes rotating from the
//! bottom) and the arena's (the waiting units in rank order, the last
//! opponent avoided where another is waiting).

/// At most this many steps of the search for a Swiss pairing of
/// partnerships without repeats; past it, repeats are allowed.
const SEARCH_STEPS: usize = 200_000;

/// The Swiss pairing of `ranked` (every unit to pair, best first) into
/// tables of `k`. The last `ranked.len() % k` places get byes: among the
/// units with the fewest byes so far (`byes(u)`), the lowest ranked.
/// Tables are taken from the top; with two units a table, a search finds
/// a pairing with no two units that met before (`met`) whenever one
/// exists (within [`SEARCH_STEPS`]), the highest ranked paired first with
/// the nearest it may meet; with more a table, each seat goes to the
/// highest ranked unit left that met nobody at the table, if any.
pub fn swiss(
    ranked: &[usize],
    k: usize,
    met: &dyn Fn(usize, usize) -> bool,
    byes: &dyn Fn(usize) -> u32,
) -> (Vec<Vec<usize>>, Vec<usize>) {
    let mut rest: Vec<usize> = ranked.to_vec();
    let bye_count = rest.len() % k;
    let mut bye = Vec::new();
    for _ in 0..bye_count {
        let fewest = rest.iter().map(|&u| byes(u)).min().unwrap_or(0);
        let at = rest
            .iter()
            .rposition(|&u| byes(u) == fewest)
            .unwrap_or(rest.len() - 1);
        bye.push(rest.remove(at));
    }
    let tables = if k == 2 {
        let mut steps = 0;
        pair_two(&rest, met, &mut steps).unwrap_or_else(|| greedy(&rest, k, met))
    } else {
        greedy(&rest, k, met)
    };
    (tables, bye)
}

/// Partnerships paired two by two with no repeat, the best first with the
/// nearest below it that it has not met; `None` when none exists (or the
/// search ran out of steps).
fn pair_two(
    rest: &[usize],
    met: &dyn Fn(usize, usize) -> bool,
    steps: &mut usize,
) -> Option<Vec<Vec<usize>>> {
    let Some((&a, others)) = rest.split_first() else {
        return Some(Vec::new());
    };
    for (j, &b) in others.iter().enumerate() {
        *steps += 1;
        if *steps > SEARCH_STEPS {
            return None;
        }
        if met(a, b) {
            continue;
        }
        let left: Vec<usize> = others
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != j)
            .map(|(_, &u)| u)
            .collect();
        if let Some(mut tables) = pair_two(&left, met, steps) {
            tables.insert(0, vec![a, b]);
            return Some(tables);
        }
    }
    None
}

/// Tables of `k` from the top of `rest`: each seat to the highest ranked
/// unit left that met nobody already at the table, else to the highest
/// ranked left. The units beyond the last full table are left out.
pub fn greedy(rest: &[usize], k: usize, met: &dyn Fn(usize, usize) -> bool) -> Vec<Vec<usize>> {
    let mut left: Vec<usize> = rest.to_vec();
    let mut tables = Vec::new();
    while left.len() >= k {
        let mut table = vec![left.remove(0)];
        while table.len() < k {
            let at = left
                .iter()
                .position(|&u| table.iter().all(|&t| !met(t, u)))
                .unwrap_or(0);
            table.push(left.remove(at));
        }
        tables.push(table);
    }
    tables
}

/// The arena's pairing of the units waiting (best first) into tables of
/// `k`, each avoiding the units its members just played (`last`) where
/// another is waiting; returns the tables and the units left waiting.
pub fn arena(
    waiting: &[usize],
    k: usize,
    last: &dyn Fn(usize, usize) -> bool,
) -> (Vec<Vec<usize>>, Vec<usize>) {
    let tables = greedy(waiting, k, last);
    let seated: Vec<usize> = tables.iter().flatten().copied().collect();
    let left = waiting
        .iter()
        .copied()
        .filter(|u| !seated.contains(u))
        .collect();
    (tables, left)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn met_set(pairs: &[(usize, usize)]) -> impl Fn(usize, usize) -> bool + '_ {
        move |a, b| {
            pairs
                .iter()
                .any(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a))
        }
    }

    #[test]
    fn swiss_pairs_neighbours_and_gives_the_bye_to_the_lowest() {
        let (tables, byes) = swiss(&[4, 2, 7, 1, 0], 2, &|_, _| false, &|_| 0);
        assert_eq!(byes, vec![0]);
        assert_eq!(tables, vec![vec![4, 2], vec![7, 1]]);
    }

    #[test]
    fn a_bye_goes_to_the_lowest_without_one() {
        let byes_of = |u: usize| u32::from(u == 0 || u == 1);
        let (_, byes) = swiss(&[4, 2, 7, 1, 0], 2, &|_, _| false, &byes_of);
        assert_eq!(byes, vec![7]);
    }

    #[test]
    fn swiss_avoids_repeats_by_backtracking() {
        // 0-1 and 2-3 met; the naive 0-1 2-3 would repeat both.
        let played = [(0, 1), (2, 3), (0, 2)];
        let met = met_set(&played);
        let (tables, _) = swiss(&[0, 1, 2, 3], 2, &met, &|_| 0);
        assert_eq!(tables, vec![vec![0, 3], vec![1, 2]]);
        for t in &tables {
            assert!(!met(t[0], t[1]));
        }
    }

    #[test]
    fn swiss_allows_a_repeat_only_when_unavoidable() {
        let played = [(0, 1)];
        let met = met_set(&played);
        let (tables, _) = swiss(&[0, 1], 2, &met, &|_| 0);
        assert_eq!(tables, vec![vec![0, 1]]);
    }

    #[test]
    fn tables_of_four_take_each_unit_once() {
        let ranked: Vec<usize> = (0..10).collect();
        let played = [(0, 1), (0, 2)];
        let met = met_set(&played);
        let (tables, byes) = swiss(&ranked, 4, &met, &|_| 0);
        assert_eq!(byes.len(), 2);
        assert_eq!(tables.len(), 2);
        assert_eq!(tables[0], vec![0, 3, 4, 5]);
        let all: HashSet<usize> = tables.iter().flatten().chain(&byes).copied().collect();
        assert_eq!(all.len(), 10);
    }

    #[test]
    fn the_arena_skips_the_last_opponent_when_another_waits() {
        let played = [(0, 1)];
        let met = met_set(&played);
        let (tables, left) = arena(&[0, 1, 2], 2, &met);
        assert_eq!(tables, vec![vec![0, 2]]);
        assert_eq!(left, vec![1]);
        let (tables, left) = arena(&[0, 1], 2, &met);
        assert_eq!(tables, vec![vec![0, 1]]);
        assert!(left.is_empty());
    }
}
