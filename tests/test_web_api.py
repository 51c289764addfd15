"""The JSON API in-process: statuses, bodies, errors that name the bad input,
nothing changed by a failed request, players kept apart, persistence."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cardlists import ids
from intrigue.game import Game
from intrigue.position import Position
from intrigue.solver import solve
from intrigue.solver.rollouts import END_NODES
from intrigue.web.api import _blocked_text
from intrigue.web.app import create_app
from intrigue.web.settings import Settings

Client = TestClient


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(db_path=tmp_path / "games.sqlite3", hint_seconds=5.0)


@pytest.fixture
def client(settings: Settings) -> Iterator[Client]:
    with TestClient(create_app(settings)) as c:
        yield c


def new_game(client: Client, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json={"game": "intrigue", "deal": 3, "mode": "auto", **body})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def winning_line(game: str = "intrigue", deal: int = 3) -> list[str]:
    result = solve(Position.start(game, deal, "auto"), max_nodes=200_000)
    assert result.verdict == "won" and result.moves
    return [str(m) for m in result.moves]


def assert_error(r: Any, status: int, error: str, *words: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"] == error, body
    for word in words:
        assert word in body["detail"], body


# ---------------------------------------------------------------- new games and the view model


def test_new_game_returns_the_full_view_model(client: Client) -> None:
    view = new_game(client)
    game = Game("intrigue", 3)
    assert view["game"] == "intrigue" and view["deal"] == 3 and view["mode"] == "auto"
    assert view["deal_text"] == "3"
    columns = view["position"]["columns"]
    assert [[c["id"] for c in col] for col in columns] == [list(c) for c in game.position.columns]
    assert all(set(c) == {"id", "card"} for col in columns for c in col)
    expected: dict[str, list[str]] = {}
    for m in game.legal_moves():
        expected.setdefault(str(m.source), []).append("f" if m.is_to_pile else str(m.target))
    assert view["dests"] == expected
    assert view["move_count"] == 0 and view["moves"] == []
    assert view["can_undo"] is False and view["can_redo"] is False
    assert view["won"] is False and view["stuck"] is False and view["last_move"] is None


def test_manual_mode_offers_the_deal(client: Client) -> None:
    view = new_game(client, game="salic-law", deal=7, mode="manual")
    assert view["dests"] == {"deal": True}
    assert len(view["position"]["discard"]) == 8 and len(view["position"]["stock"]) == 95
    r = client.post(f"/api/games/{view['id']}/moves", json={"move": "d"})
    assert r.status_code == 200
    assert r.json()["last_move"]["move"] == "d"
    assert r.json()["last_move"]["text"].startswith("dealt the ")


def test_random_deal_when_no_deal_is_given(client: Client) -> None:
    r = client.post("/api/games", json={"game": "glencoe"})
    assert r.status_code == 201
    assert 1 <= r.json()["deal"] < 10**9
    assert r.json()["mode"] == "auto"


def test_huge_deal_numbers_round_trip_as_text(client: Client) -> None:
    view = new_game(client, deal="99999999999999999999")
    assert view["deal_text"] == "99999999999999999999"
    again = client.get(f"/api/games/{view['id']}").json()
    assert again["deal_text"] == "99999999999999999999"


@pytest.mark.parametrize(
    ("body", "error", "words"),
    [
        ({"game": "poker"}, "UnknownVariantError", ["'poker'", "intrigue"]),
        ({"game": 7}, "UnknownVariantError", ["7"]),
        ({"deal": 0}, "DealNumberError", ["0", "start at 1"]),
        ({"deal": 10**20}, "DealNumberError", ["largest"]),
        ({"deal": "forty-two"}, "DealNumberError", ["'forty-two'"]),
        ({"deal": 4.5}, "DealNumberError", ["4.5"]),
        ({"deal": True}, "DealNumberError", ["True"]),
        ({"mode": "turbo"}, "DealModeError", ["'turbo'", "auto, manual"]),
        ({"colour": "red"}, "RequestError", ["'colour'"]),
    ],
)
def test_bad_new_game_requests_name_the_problem(
    client: Client, body: dict[str, Any], error: str, words: list[str]
) -> None:
    assert_error(client.post("/api/games", json=body), 400, error, *words)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"{not json", ["malformed JSON"]),
        (b"[1, 2]", ["JSON object", "array"]),
        (b'"3-5"', ["JSON object", "string"]),
        (b"\xff\xfe", ["UTF-8"]),
        (b"{" + b" " * 20000 + b"}", ["too large"]),
    ],
)
def test_malformed_bodies_are_400(client: Client, content: bytes, words: list[str]) -> None:
    view = new_game(client)
    r = client.post(f"/api/games/{view['id']}/moves", content=content)
    assert_error(r, 400, "RequestError", *words)


# ---------------------------------------------------------------- moves, undo, redo


def test_move_undo_redo_restart(client: Client) -> None:
    line = winning_line()
    gid = new_game(client)["id"]
    r = client.post(f"/api/games/{gid}/moves", json={"move": line[0]})
    assert r.status_code == 200
    view = r.json()
    assert view["moves"] == [line[0]] and view["can_undo"] and not view["can_redo"]
    assert view["last_move"]["move"] == line[0]
    assert " to " in view["last_move"]["text"]
    view = client.post(f"/api/games/{gid}/undo").json()
    assert view["moves"] == [] and view["can_redo"] and view["undone"] == line[0]
    assert " to " in view["undone_text"]
    view = client.post(f"/api/games/{gid}/redo").json()
    assert view["moves"] == [line[0]]
    client.post(f"/api/games/{gid}/moves", json={"move": line[1]})
    view = client.post(f"/api/games/{gid}/restart").json()
    assert view["moves"] == [] and view["can_redo"]
    assert client.post(f"/api/games/{gid}/redo").json()["moves"] == [line[0]]


@pytest.mark.parametrize(
    ("move", "error", "words"),
    [
        ("9f", "NotationError", ["'9f'"]),
        ("3x", "NotationError", ["'3x'"]),
        (35, "NotationError", ["35"]),
        ("d", "IllegalMoveError", ["'d'", "manual"]),
        ("2-8", "IllegalMoveError", ["'2-8'", "not vacant", "intrigue deal 3"]),
    ],
)
def test_bad_moves_are_refused_and_change_nothing(
    client: Client, move: Any, error: str, words: list[str]
) -> None:
    gid = new_game(client)["id"]
    client.post(f"/api/games/{gid}/moves", json={"move": winning_line()[0]})
    before = client.get(f"/api/games/{gid}").json()
    r = client.post(f"/api/games/{gid}/moves", json={"move": move})
    assert_error(r, 400, error, *words)
    assert client.get(f"/api/games/{gid}").json() == before


def test_missing_move_field(client: Client) -> None:
    gid = new_game(client)["id"]
    assert_error(client.post(f"/api/games/{gid}/moves", json={}), 400, "RequestError", "'move'")


def test_nothing_to_undo_or_redo(client: Client) -> None:
    gid = new_game(client)["id"]
    assert_error(client.post(f"/api/games/{gid}/undo"), 400, "IllegalMoveError", "nothing to undo")
    assert_error(client.post(f"/api/games/{gid}/redo"), 400, "IllegalMoveError", "nothing to redo")


def test_a_new_move_clears_redo(client: Client) -> None:
    line = winning_line()
    gid = new_game(client)["id"]
    client.post(f"/api/games/{gid}/moves", json={"move": line[0]})
    client.post(f"/api/games/{gid}/undo")
    other = next(
        m for m in client.get(f"/api/games/{gid}").json()["dests"]["7"] if m != line[0][2:]
    )
    view = client.post(f"/api/games/{gid}/moves", json={"move": f"7-{other}"}).json()
    assert not view["can_redo"]


# ---------------------------------------------------------------- players, 404s and routing


def test_games_belong_to_their_browser(settings: Settings) -> None:
    app = create_app(settings)
    with TestClient(app) as alice, TestClient(app) as bob:
        gid = new_game(alice)["id"]
        assert alice.get(f"/api/games/{gid}").status_code == 200
        assert_error(bob.get(f"/api/games/{gid}"), 404, "GameNotFoundError", repr(gid))
        assert_error(
            bob.post(f"/api/games/{gid}/moves", json={"move": "7-1"}), 404, "GameNotFoundError"
        )
        assert_error(bob.post(f"/api/games/{gid}/undo"), 404, "GameNotFoundError")
        assert_error(bob.get("/api/players/me/current"), 404, "GameNotFoundError")


def test_player_cookie_is_httponly_and_samesite(client: Client) -> None:
    r = client.get("/api/variants")
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("intrigue_player=")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    # Once set, it is not sent again.
    assert "set-cookie" not in client.get("/api/variants").headers


def test_a_forged_cookie_gets_a_fresh_player(settings: Settings) -> None:
    with TestClient(create_app(settings)) as c:
        c.cookies.set("intrigue_player", "<script>")
        r = c.get("/api/variants")
        assert "set-cookie" in r.headers


def test_unknown_game_and_route_and_method(client: Client) -> None:
    assert_error(client.get("/api/games/nope"), 404, "GameNotFoundError", "'nope'")
    assert_error(client.get("/api/nothing"), 404, "NotFound")
    assert_error(client.get("/api/games/x/moves"), 405, "MethodNotAllowed")


def test_unexpected_errors_are_500_without_a_traceback(settings: Settings) -> None:
    app = create_app(settings)

    def boom(*args: Any) -> None:
        raise RuntimeError("secret internals")

    app.state.store.current = boom
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.get("/api/players/me/current")
    assert r.status_code == 500
    assert r.json()["error"] == "InternalError"
    assert "secret" not in r.text and "Traceback" not in r.text


def test_static_page_and_modules_are_served(client: Client) -> None:
    r = client.get("/")
    assert r.status_code == 200 and '<script type="module"' in r.text
    for path in ("/js/main.js", "/js/render.js", "/css/table.css", "/favicon.svg"):
        assert client.get(path).status_code == 200, path


def test_variants_have_rules_in_words(client: Client) -> None:
    variants = client.get("/api/variants").json()["variants"]
    assert [v["id"] for v in variants] == [
        "intrigue", "laggard-lady", "glencoe", "salic-law", "faerie-queen"
    ]  # fmt: skip
    for v in variants:
        assert v["name"] and v["summary"] and len(v["rules"]) >= 3
    assert [v["base"] for v in variants] == ["Queen", "Queen", "Queen", "King", "King"]


# ---------------------------------------------------------------- persistence and statistics


def test_games_survive_a_server_restart(settings: Settings) -> None:
    line = winning_line()
    with TestClient(create_app(settings)) as c:
        gid = new_game(c)["id"]
        for m in line[:3]:
            c.post(f"/api/games/{gid}/moves", json={"move": m})
        c.post(f"/api/games/{gid}/undo")
        cookie = c.cookies["intrigue_player"]
        before = c.get(f"/api/games/{gid}").json()
    with TestClient(create_app(settings)) as c:
        c.cookies.set("intrigue_player", cookie)
        assert c.get(f"/api/games/{gid}").json() == before
        current = c.get("/api/players/me/current").json()
        assert current["id"] == gid and current["moves"] == line[:2] and current["can_redo"]


def test_winning_updates_the_statistics(client: Client) -> None:
    line = winning_line()
    assert client.get("/api/stats").json() == {"stats": []}
    gid = new_game(client)["id"]
    for m in line:
        view = client.post(f"/api/games/{gid}/moves", json={"move": m}).json()
    assert view["won"] and view["finished"] is not None
    assert view["dests"] == {} and not view["can_autofinish"]
    # A second game, abandoned after one move, counts as a loss once a third begins.
    lost = new_game(client)["id"]
    client.post(f"/api/games/{lost}/moves", json={"move": line[0]})
    new_game(client, game="glencoe")
    (row,) = client.get("/api/stats").json()["stats"]
    assert row["game"] == "intrigue" and row["mode"] == "auto"
    assert row["played"] == 2 and row["won"] == 1 and row["win_percent"] == 50.0
    assert row["current_streak"] == 0 and row["best_streak"] == 1
    assert row["fewest_moves"] == len(line)
    assert row["best_seconds"] is not None and row["best_seconds"] >= 0


# ---------------------------------------------------------------- solver-backed routes


def test_hint_gives_a_move_on_a_winning_line(client: Client) -> None:
    gid = new_game(client)["id"]
    before = client.get(f"/api/games/{gid}").json()
    r = client.post(f"/api/games/{gid}/hint")
    assert r.status_code == 200
    hint = r.json()["hint"]
    assert hint["verdict"] == "won" and hint["move"] and hint["text"].startswith("Move the ")
    # Playing the hint keeps the game winnable; asking changed nothing.
    assert client.get(f"/api/games/{gid}").json() == before
    client.post(f"/api/games/{gid}/moves", json={"move": hint["move"]})
    assert client.post(f"/api/games/{gid}/winnable").json()["verdict"] == "won"


def test_lost_deal_hint_and_verdict(client: Client) -> None:
    gid = new_game(client, deal=4)["id"]  # intrigue deal 4 is lost from the start
    assert client.post(f"/api/games/{gid}/hint").json()["hint"]["verdict"] == "lost"
    assert client.post(f"/api/games/{gid}/winnable").json()["verdict"] == "lost"
    assert_error(
        client.post(f"/api/games/{gid}/rewind"), 400, "NotWinnableError", "not even its start"
    )


def test_the_tables_verdicts_size_the_rollouts_end_searches_by_the_settings(
    tmp_path: Path,
) -> None:
    # Laggard Lady 4384 from the start needs the rollouts over the deal: at the
    # hint limit they win it with end searches of 5 000 positions (the table's
    # default), and not with the library's 500.  No deadline gets in the way.
    verdicts = []
    for size in (END_NODES, Settings.rollout_end_nodes):
        settings = Settings(
            db_path=tmp_path / f"{size}.sqlite3", hint_seconds=600.0, rollout_end_nodes=size
        )
        with TestClient(create_app(settings)) as c:
            gid = new_game(c, game="laggard-lady", deal=4384, mode="manual")["id"]
            verdicts.append(c.post(f"/api/games/{gid}/winnable").json()["verdict"])
    assert verdicts == ["unknown", "won"]


def test_rewind_goes_back_to_the_last_winnable_position(client: Client) -> None:
    # Intrigue deal 1: along the solver's line, some move throws the game away.
    line = winning_line("intrigue", 1)
    game = Game("intrigue", 1)
    bad = None
    while bad is None:
        bad = next(
            (str(m) for m in game.legal_moves()
             if solve(game.position.apply(m), max_nodes=200_000).verdict == "lost"),
            None,
        )  # fmt: skip
        if bad is None:
            game.play(line[len(game.moves)])
    played = [str(m) for m in game.moves]
    gid = new_game(client, deal=1)["id"]
    for m in [*played, bad, *winning_line_after(game, bad)]:
        assert client.post(f"/api/games/{gid}/moves", json={"move": m}).status_code == 200
    assert client.post(f"/api/games/{gid}/winnable").json()["verdict"] == "lost"
    view = client.post(f"/api/games/{gid}/rewind").json()
    assert view["rewound_to"] == len(played) and view["moves"] == played
    assert view["can_redo"]
    assert_error(client.post(f"/api/games/{gid}/rewind"), 400, "NotWinnableError", "still be won")


def winning_line_after(game: Game, bad: str) -> list[str]:
    """A couple of legal moves after the losing one, so the rewind has history to search."""
    g = game.copy()
    g.play(bad)
    out = []
    for _ in range(2):
        moves = g.legal_moves()
        if not moves:
            break
        out.append(str(g.play(moves[0])))
    return out


def test_autofinish_plays_out_a_trivial_end(client: Client) -> None:
    line = winning_line()
    gid = new_game(client)["id"]
    # Play until only pile moves are left.
    for m in line:
        view = client.post(f"/api/games/{gid}/moves", json={"move": m}).json()
        if view["can_autofinish"]:
            break
    assert view["can_autofinish"], "the line should end with pile moves only"
    played = view["move_count"]
    view = client.post(f"/api/games/{gid}/autofinish").json()
    assert view["won"] and view["played"] and view["move_count"] == played + len(view["played"])
    assert_error(
        client.post(f"/api/games/{gid}/autofinish"), 400, "NotWinnableError", "already won"
    )


def test_autofinish_refuses_a_lost_position(client: Client) -> None:
    gid = new_game(client, deal=4)["id"]
    before = client.get(f"/api/games/{gid}").json()
    assert_error(client.post(f"/api/games/{gid}/autofinish"), 400, "NotWinnableError", "play on")
    assert client.get(f"/api/games/{gid}").json() == before


def test_a_column_test_loss_says_which_column(client: Client) -> None:
    # Salic Law 7228 (manual) sticks in column 1; the hint says so in words.
    gid = new_game(client, game="salic-law", deal=7228, mode="manual")["id"]
    hint = client.post(f"/api/games/{gid}/hint").json()["hint"]
    assert hint["verdict"] == "lost"
    assert hint["text"] == (
        "No winning line from here: the cards of column 1 can never all reach the piles."
    )


def test_a_rank_projection_loss_names_the_pile_kind(client: Client) -> None:
    # Intrigue 6812 (manual): no column test proof, but its Fives' staircase
    # can never be completed (intrigue.solver.projection).
    gid = new_game(client, game="intrigue", deal=6812, mode="manual")["id"]
    hint = client.post(f"/api/games/{gid}/hint").json()["hint"]
    assert hint["verdict"] == "lost"
    assert hint["text"] == (
        "No winning line from here: the Five-piles can never all be completed, "
        "whatever the other cards do."
    )


def test_a_blocked_column_still_to_come_is_named_by_its_base() -> None:
    # The second King opens column 2, whose 2C 3C 4C 5C bury the Ace: lost.
    position = Position.from_order("salic-law", ids("KS KH 2C 3C 4C 5C AC"), "manual")
    assert len(position.columns) == 1
    assert _blocked_text(position, (2,)) == (
        "the cards of the column the next King will open can never all reach the piles."
    )
    assert _blocked_text(position, (3,)).startswith("the cards of the column the second King still")
    assert _blocked_text(position, (1, 3)) == (
        "the cards of column 1 and the column the second King still to come will open"
        " can never all reach the piles."
    )
    assert _blocked_text(position, (1, 2, 3)) == (
        "the cards of column 1, the column the next King will open and the column the"
        " second King still to come will open can never all reach the piles."
    )
