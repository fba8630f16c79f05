//! Positions around the table (`services/games/betting/seating.py`): clockwise order,
//! blinds (FCD-3 / TH-1), who acts first. Seats are numbered clockwise; the button need not
//! be a seat dealt in.

/// `clockwise_after`: the seats in clockwise order from the first one left of `anchor`
/// (`anchor` itself, if among them, last).
pub fn clockwise_after(seats: &[i64], anchor: i64) -> Vec<i64> {
    let mut ordered = seats.to_vec();
    ordered.sort_unstable();
    let mut out: Vec<i64> = ordered.iter().copied().filter(|&s| s > anchor).collect();
    out.extend(ordered.iter().copied().filter(|&s| s <= anchor));
    out
}

/// `blind_seats` (FCD-3 / TH-1): (small blind, big blind); heads-up the button posts the
/// small blind. None with fewer than two seats (the reference raises).
pub fn blind_seats(seats: &[i64], button: i64) -> Option<(i64, i64)> {
    if seats.len() < 2 {
        return None;
    }
    if seats.len() == 2 && seats.contains(&button) {
        let other = *seats.iter().find(|&&s| s != button)?;
        return Some((button, other));
    }
    let order = clockwise_after(seats, button);
    Some((order[0], order[1]))
}

/// `first_left_of`: the first of `seats` clockwise from `anchor`.
pub fn first_left_of(seats: &[i64], anchor: i64) -> Option<i64> {
    clockwise_after(seats, anchor).first().copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clockwise_wraps_and_blinds_go_left_of_the_button() {
        assert_eq!(clockwise_after(&[5, 1, 3], 3), vec![5, 1, 3]);
        assert_eq!(blind_seats(&[1, 3], 3), Some((3, 1)));
        assert_eq!(blind_seats(&[1, 3], 2), Some((3, 1)));
        assert_eq!(blind_seats(&[1, 2, 3], 3), Some((1, 2)));
        assert_eq!(first_left_of(&[2, 4], 4), Some(2));
    }
}
