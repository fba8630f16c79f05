"""FCD-3 / FCD-5 / FCD-7: positions around the table."""

from services.games.betting import blind_seats, clockwise_after, first_left_of


def test_clockwise_after_starts_left_of_anchor_and_ends_with_it() -> None:
    """Seats 2, 4, 7 with anchor 4: left of 4 is 7, then 2 (wrap), then 4 itself."""
    assert clockwise_after([7, 2, 4], 4) == [7, 2, 4]


def test_blinds_left_of_the_button() -> None:
    """FCD-3: button 7 of seats 2, 4, 7: the next seat clockwise (2) posts the small
    blind, the one after (4) the big blind."""
    assert blind_seats([2, 4, 7], 7) == (2, 4)


def test_heads_up_button_posts_small_blind() -> None:
    """FCD-3: heads-up the button (5) posts the small blind, the other seat (3) the big."""
    assert blind_seats([3, 5], 5) == (5, 3)


def test_dead_button_counts_from_its_seat_number() -> None:
    """Button on empty seat 2, players 1, 3, 5: small blind 3, big blind 5."""
    assert blind_seats([1, 3, 5], 2) == (3, 5)
    assert first_left_of([1, 3, 5], 5) == 1
