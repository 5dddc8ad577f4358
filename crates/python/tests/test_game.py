"""`Game`, `Moves` and `Outcome` against the CLI and the rules' facts."""

import copy
import pickle
import random
import re

import numpy as np
import pytest

import arenagames as ag

VARIANTS = ["tictactoe", "mnk-5x5k4", "mnk-4x7k4-caro", "mnk-5x5k4-center", "gomoku",
            "mnk-3x3k3-exact", "oanquan", "oanquan-stop-young5-end", "oanquan-3p",
            "oanquan-4p", "connect4", "connect4-7x8", "oware", "othello", "breakthrough",
            "breakthrough-6x5"]


def cli_perft(cli, variant, depth):
    code, out, err = cli("perft", variant, depth)
    assert code == 0, err
    counts = {}
    for line in out.splitlines():
        fields = line.split()
        if fields and fields[0].isdigit():
            counts[int(fields[0])] = int(fields[1])
    return counts


def python_perft(game, depth):
    """Perft driven from Python: legal_moves, push and pop."""
    if depth == 0:
        return 1
    moves = game.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        game.push(move)
        total += python_perft(game, depth - 1)
        game.pop()
    return total


@pytest.mark.parametrize("variant,depth", [
    ("tictactoe", 9), ("mnk-5x5k4", 4), ("mnk-5x5k4-center", 4), ("oanquan", 6),
    ("oanquan-3p", 5), ("oanquan-4p", 4), ("oanquan-stop-young5-end", 5), ("oware", 6),
    ("othello", 5), ("breakthrough", 3), ("breakthrough-6x5", 4),
])
def test_perft_through_push_and_pop_equals_the_cli(cli, variant, depth):
    expected = cli_perft(cli, variant, depth)
    game = ag.Game(variant)
    for d in range(1, depth + 1):
        assert python_perft(game, d) == expected[d], f"{variant} depth {d}"
    assert game.ply == 0 and game.history() == []


@pytest.mark.parametrize("variant,depth", [
    ("tictactoe", 9), ("mnk-5x5k4", 5), ("oanquan", 7), ("oanquan-3p", 6), ("oanquan-4p", 5),
    ("oware", 8),
])
def test_perft_in_one_call_equals_the_cli(cli, variant, depth):
    expected = cli_perft(cli, variant, depth)
    game = ag.Game(variant)
    assert [game.perft(d) for d in range(1, depth + 1)] == [expected[d]
                                                              for d in range(1, depth + 1)]


GOLDEN = [
    ("oanquan", "", "[5, 5, 5, 5, 5] <10> [5, 5, 5, 5, 5] <10> (0 || 0)"),
    ("oanquan", "1P", "[0, 0, 6, 6, 6] <11> [0, 6, 6, 6, 6] <11> (6 || 0)"),
    ("oanquan", "3P", "[6, 6, 0, 0, 6] <11> [6, 6, 0, 6, 6] <11> (6 || 0)"),
    ("oanquan", "3P 7P", "[6, 0, 0, 1, 7] <12> [7, 7, 1, 0, 6] <11> (6 || 6)"),
    ("oanquan", "3P 7P 5P", "[2, 3, 3, 4, 0] <0> [0, 0, 4, 3, 9] <14> (22 || 6)"),
    ("oanquan-3p", "1P",
     "[0, 0, 6, 6, 6] <11> [0, 6, 6, 6, 6] <11> [0, 6, 6, 6, 6] <11> (6 | 0 | 0)"),
    ("oanquan-3p", "1T",
     "[0, 6, 6, 6, 6] <11> [0, 6, 6, 6, 6] <11> [0, 6, 6, 6, 6] <0> (11 | 0 | 0)"),
    # docs/oware.md's first golden traces.
    ("oware", "F", "[4, 4, 4, 4, 4, 0] [5, 5, 5, 5, 4, 4] (0 || 0)"),
    ("oware", "F b", "[5, 4, 4, 4, 4, 0] [5, 0, 6, 6, 5, 5] (0 || 0)"),
]


@pytest.mark.parametrize("variant,moves,expected", GOLDEN)
def test_mancala_golden_traces(cli, variant, moves, expected):
    game = ag.Game(variant, moves)
    assert str(game) == expected
    # The same text as `arena replay` prints after the last move.
    code, out, err = cli("replay", variant, moves)
    assert code == 0, err
    positions = [line for line in out.splitlines() if line.startswith("[")]
    assert positions[-1] == expected
    # Played move by move from actions, the same trace.
    stepped = ag.Game(variant)
    for text in moves.split():
        stepped.push(stepped.parse_move(text))
    assert stepped == game and str(stepped) == expected


def test_the_mnk_board_is_the_cli_s(cli):
    moves = "b2 a1 a2 c1 c2"
    code, out, _ = cli("replay", "tictactoe", moves)
    assert code == 0
    board = out.split("5. c2 (X)\n", 1)[1].split("result:")[0]
    assert str(ag.Game("tictactoe", moves)) + "\n" == board


BAD_IDS = ["mnk-0x3k3", "mnk-3x3k4", "chess", "mnk-3x3", "oanquan-5p", "mnk-3x3k3-caro-exact",
           "oanquan-mandarin0", "oanquan-stop-stop", "", "mnk-99x3k3"]


@pytest.mark.parametrize("variant", BAD_IDS)
def test_bad_variant_ids_raise_the_cli_s_message(cli_error, variant):
    with pytest.raises(ValueError) as raised:
        ag.Game(variant)
    assert str(raised.value) == cli_error("replay", variant, "")


BAD_LINES = [
    ("tictactoe", "b2 z9"), ("tictactoe", "b2 b2"), ("tictactoe", "b2 x"),
    ("tictactoe", "b2 a1 a2 c1 c2 c3"), ("mnk-5x5k4-center", "a1"), ("tictactoe", "b2 3,3"),
    ("oanquan", "3P 3P"), ("oanquan", "11P"), ("oanquan", "3X"), ("oanquan", "P"),
    ("oanquan-3p", "1P 1P"), ("oanquan-4p", "21P"),
]


@pytest.mark.parametrize("variant,moves", BAD_LINES)
def test_bad_moves_raise_the_cli_s_message(cli_error, variant, moves):
    with pytest.raises(ValueError) as raised:
        ag.Game(variant, moves)
    assert str(raised.value) == cli_error("replay", variant, moves)
    # One move at a time: the message without the place in the line.
    *before, last = moves.split()
    game = ag.Game(variant, " ".join(before))
    with pytest.raises(ValueError) as one:
        game.push(last)
    assert str(raised.value).endswith(str(one.value)) or "already over" in str(raised.value)
    assert game.moves_text() == " ".join(before)  # a refused move changes nothing


def test_bad_actions_raise_value_errors_and_change_nothing():
    game = ag.Game("tictactoe", "b2")
    for bad in [4, 9, -1, 2**40]:
        with pytest.raises(ValueError):
            game.push(bad)
    with pytest.raises(ValueError, match="illegal here: cell b2 is occupied by X"):
        game.push(4)
    with pytest.raises(ValueError, match="9 is not an action of mnk-3x3k3: actions are 0 to 8"):
        game.push(9)
    for bad in [1.5, None, [1], b"b2", True]:
        with pytest.raises(TypeError):
            game.push(bad)
    # A cell as (row, col) is refused in Python's words, with the action it means.
    with pytest.raises(TypeError) as refused:
        game.push((1, 1))
    assert "MoveArg" not in str(refused.value)
    assert "a move is an action (an int) or its text (a str, like 'b3'), not a tuple: (1, 1)" in str(
        refused.value)
    assert "row * cols + col" in str(refused.value)
    with pytest.raises(TypeError, match="not a float: 1.5"):
        ag.Game("tictactoe", [4, 1.5])
    assert game.history() == [4]
    with pytest.raises(ValueError, match="cannot be played: the game is over"):
        ag.Game("tictactoe", "b2 a1 a2 c1 c2").push(0)
    with pytest.raises(IndexError):
        ag.Game("oanquan").pop()


def test_random_text_never_crashes():
    rng = random.Random(7)
    alphabet = "abcxyzPTRL0123456789,-()k ~\u00e9"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 9)))
        for variant in ["mnk-" + text, "oanquan" + text, text]:
            try:
                ag.Game(variant)
            except ValueError:
                pass
        for variant in ["tictactoe", "oanquan-3p"]:
            try:
                ag.Game(variant).push(text)
            except ValueError:
                pass


@pytest.mark.parametrize("variant", VARIANTS)
def test_actions_texts_and_masks_agree_over_random_games(variant):
    rng = random.Random(3)
    for _ in range(20):
        game = ag.Game(variant)
        while not game.is_over() and game.ply < 300:
            moves = game.legal_moves()
            mask = game.legal_mask()
            assert mask.dtype == np.bool_ and mask.shape == (game.num_actions,)
            assert list(np.flatnonzero(mask)) == sorted(moves)
            assert len(set(moves)) == len(moves)
            for action in moves:
                text = game.format_move(action)
                assert game.parse_move(text) == action
                assert game.is_legal(action) and game.is_legal(text)
            for action in set(range(game.num_actions)) - set(moves):
                assert not game.is_legal(action)
            before = game.hash()
            move = rng.choice(moves)
            game.push(move)
            assert game.pop() == move and game.hash() == before
            game.push(game.format_move(move) if rng.random() < 0.5 else move)
        if game.is_over():
            assert len(game.legal_moves()) == 0 and not game.legal_mask().any()
        assert ag.Game(variant, game.moves_text()) == game
        assert ag.Game(variant, game.history()) == game


def test_oanquan_actions_are_the_mover_s_squares_in_label_order():
    game = ag.Game("oanquan")
    assert game.num_actions == 10
    assert [game.format_move(a) for a in range(10)] == [
        "1P", "1T", "2P", "2T", "3P", "3T", "4P", "4T", "5P", "5T"]
    game.push("3P")
    assert [game.format_move(a) for a in range(0, 10, 2)] == ["6P", "7P", "8P", "9P", "10P"]
    assert game.parse_move("7P") == 2 and game.parse_move("9T") == 7
    four = ag.Game("oanquan-4p", "1P 7T")
    assert four.to_move() == 2
    assert [four.format_move(a) for a in (0, 9)] == ["11P", "15T"]


def test_moves_is_an_immutable_sequence_of_actions():
    game = ag.Game("tictactoe", "b2 a1")
    moves = game.legal_moves()
    assert len(moves) == 7 and list(moves) == [1, 2, 3, 5, 6, 7, 8]
    assert moves == [1, 2, 3, 5, 6, 7, 8] and moves != [1, 2]
    assert moves[0] == 1 and moves[-1] == 8 and moves[1:3] == [2, 3]
    assert moves[::-1] == [8, 7, 6, 5, 3, 2, 1] and list(reversed(moves)) == moves[::-1]
    assert 5 in moves and 4 not in moves and "b1" not in moves
    assert moves.index(5) == 3 and moves.count(5) == 1 and moves.count(4) == 0
    with pytest.raises(IndexError):
        moves[7]
    with pytest.raises(ValueError):
        moves.index(4)
    with pytest.raises(TypeError):
        moves["a"]
    with pytest.raises(TypeError):
        moves[0] = 3
    assert repr(moves) == "Moves([1, 2, 3, 5, 6, 7, 8])"
    from collections.abc import Sequence
    assert isinstance(moves, Sequence)
    # A list held by the caller never changes when the game goes on.
    kept = game.legal_moves()
    game.push(1)
    assert list(kept) == [1, 2, 3, 5, 6, 7, 8]
    assert list(game.legal_moves()) == [2, 3, 5, 6, 7, 8]
    assert list(kept) == [1, 2, 3, 5, 6, 7, 8]
    # Reused only when nobody holds it: ids may repeat, contents are always right.
    for _ in range(3):
        assert list(game.legal_moves()) == [2, 3, 5, 6, 7, 8]
    assert len(ag.Game("mnk-19x19k5").legal_moves()) == 361
    assert list(ag.Game("mnk-5x5k4-center").legal_moves()) == [12]


def test_observations_from_each_seat():
    game = ag.Game("tictactoe", "b2 a1 c3")
    assert game.observation_shape == (3, 3, 3)
    mover = game.observation()  # O to move
    assert mover.dtype == np.float32 and mover.shape == (3, 3, 3)
    assert mover[0].sum() == 1 and mover[0][0, 0] == 1  # O's stone a1
    assert mover[1].sum() == 2 and mover[1][1, 1] == 1 and mover[1][2, 2] == 1
    assert not mover[2].any()  # O is not the first player
    x_view = game.observation(0)
    assert (x_view[0] == mover[1]).all() and (x_view[1] == mover[0]).all() and x_view[2].all()
    with pytest.raises(ValueError):
        game.observation(2)

    q = ag.Game("oanquan", "3P 7P 5P")  # player 2 to move
    assert q.observation_shape == (2, 8)
    view = q.observation()
    # Player 2's squares in its label order 6..10, mandarin A (emptied), its captures; then
    # player 1's squares 5..1 and mandarin B (4 seeds and its piece).
    assert view.tolist() == [[9, 3, 4, 0, 0, 0, 0, 6], [0, 4, 3, 3, 2, 4, 1, 22]]
    assert q.observation(0).tolist() == [[2, 3, 3, 4, 0, 0, 0, 22], [0, 0, 4, 3, 9, 4, 1, 6]]
    three = ag.Game("oanquan-3p", "1P")
    assert three.observation().shape == (3, 8)
    assert three.observation(0).tolist()[0] == [0, 0, 6, 6, 6, 1, 1, 6]
    assert three.observation().tolist()[2] == [0, 0, 6, 6, 6, 1, 1, 6]  # seat 1's view
    for variant in ["oanquan", "oanquan-3p", "oanquan-4p"]:
        rng = random.Random(5)
        game = ag.Game(variant)
        total = {"oanquan": 70, "oanquan-3p": 105, "oanquan-4p": 140}[variant]
        while not game.is_over():
            for seat in range(game.num_players):
                rows = game.observation(seat)
                value = rows[:, :6].sum() + 10 * rows[:, 6].sum() + rows[:, 7].sum()
                assert value == total
            game.push(rng.choice(game.legal_moves()))


def test_outcomes():
    win = ag.Game("tictactoe", "b2 a1 a2 c1 c2").outcome()
    assert (win.result, win.places, win.winner, win.is_draw) == ("1-0", [1, 2], 0, False)
    assert win.scores == [1.0, 0.0] and win.returns == [1.0, -1.0]
    draw = ag.Game("tictactoe", "b2 a1 c1 a3 a2 c2 b1 b3 c3").outcome()
    assert (draw.result, draw.places, draw.winner, draw.is_draw) == ("1/2-1/2", [1, 1], None,
                                                                      True)
    assert draw.returns == [0.0, 0.0]
    assert ag.Game("tictactoe").outcome() is None
    # The test the docs show: seat 0 (the first player) won, so `winner` is 0, which is falsy.
    first_won = ag.Game("tictactoe", "b2 a1 a2 c1 c2").outcome()
    assert first_won.winner is not None and first_won.winner == 0
    assert ag.Game("tictactoe").adjudicate().is_draw
    assert repr(win) == 'Outcome("1-0", places=[1, 2])'
    rng = random.Random(11)
    for variant in ["oanquan-3p", "oanquan-4p"]:
        for _ in range(30):
            game = ag.Game(variant)
            while not game.is_over():
                game.push(rng.choice(game.legal_moves()))
            outcome = game.outcome()
            totals = game.totals()
            assert outcome.places == [1 + sum(t > mine for t in totals) for mine in totals]
            assert outcome.result == "-".join(map(str, outcome.places))
            assert all(-1.0 <= r <= 1.0 for r in outcome.returns)
            assert sum(outcome.scores) == pytest.approx(game.num_players / 2)
            assert game.adjudicate() == outcome


def test_copies_pickles_and_hashes():
    game = ag.Game("mnk-5x5k4", "b3 c3 c2")
    twin = game.clone()
    twin.push("d1")
    assert game.ply == 3 and twin.ply == 4
    assert copy.copy(game) == game and copy.deepcopy(game) == game
    assert pickle.loads(pickle.dumps(game)) == game
    assert pickle.loads(pickle.dumps(game)).moves_text() == "b3 c3 c2"
    # Transpositions: the same stones by two orders hash alike; `==` also compares the last
    # move (the board marks it).
    a, b = ag.Game("tictactoe", "b2 a1 c3"), ag.Game("tictactoe", "c3 a1 b2")
    assert a.hash() == b.hash() and a.hash() != ag.Game("tictactoe", "b2").hash()
    assert (a.observation() == b.observation()).all() and a != b
    assert a == ag.Game("tictactoe", [4, 0, 8])
    with pytest.raises(TypeError):
        {game: 1}
    assert repr(game) == 'Game("mnk-5x5k4", moves="b3 c3 c2")'
    played = game.play("d1")
    assert played.ply == 4 and game.ply == 3


def test_whole_playouts_in_one_call():
    game = ag.Game("gomoku")
    first = game.random_playouts(200, seed=4)
    assert first == game.random_playouts(200, seed=4)
    assert first != game.random_playouts(200, seed=5)
    assert first["playouts"] == 200 and sum(first["wins"]) + first["draws"] == 200
    assert 9 * 200 <= first["plies"] <= 225 * 200
    assert game.ply == 0
    mid = ag.Game("oanquan-3p", "1P").random_playouts(50)
    assert len(mid["wins"]) == 3


def test_properties_and_helpers():
    game = ag.Game("caro")
    assert (game.variant, game.family, game.num_players, game.num_actions) == (
        "mnk-15x15k5-caro", "mnk", 2, 225)
    assert game.default_max_plies == 225 and ag.Game("oanquan-4p").default_max_plies == 1000
    assert ag.canonical_variant("gomoku") == "mnk-15x15k5"
    names = [kind["name"] for kind in ag.kinds()]
    assert {"random", "mcts", "alphabeta", "greedy"} <= set(names) and "fault" not in names
    # The arena's one registry, outside kinds included, then Python functions.
    assert {"engine", "proc"} <= set(names) and names[-1] == "py"
    assert all({"name", "summary", "games", "multiplayer", "params"} <= set(k) for k in
               ag.kinds())
    assert ag.CSV_COLUMNS[:3] == ["experiment", "variant", "game"]
    assert ag.CSV_COLUMNS_SEATS[len(ag.CSV_COLUMNS)] == "players"
    assert re.fullmatch(r"\d+\.\d+\.\d+", ag.__version__)
