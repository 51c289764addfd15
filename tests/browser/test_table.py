"""The card table in a real Chromium: win with the mouse, play by keyboard,
undo, reload, and see why an illegal drop is refused."""

from __future__ import annotations

import re
from typing import Any

import pytest

from intrigue.position import Position
from intrigue.solver import solve

pytestmark = pytest.mark.browser

# Intrigue deal 3 (auto) is won in a short line: quick to play through.
WIN_GAME, WIN_DEAL = "intrigue", 3


def winning_line(game: str, deal: int) -> list[str]:
    result = solve(Position.start(game, deal, "auto"), max_nodes=200_000)
    assert result.verdict == "won" and result.moves, f"{game} deal {deal} should be won"
    return [str(m) for m in result.moves]


def open_deal(page: Any, game: str, deal: int, mode: str = "auto") -> None:
    from playwright.sync_api import expect

    page.goto(f"/#/{game}/{mode}/{deal}")
    page.wait_for_selector("body.ready")
    expect(page.locator("#deal-label")).to_contain_text(f"Deal {deal} ")


def expect_moves(page: Any, n: int) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#move-count")).to_have_text(re.compile(rf"^(Won in )?{n} moves?\b"))
    # ... and the cards are drawn for it (the renderer works in animation frames).
    expect(page.locator("#board")).to_have_attribute("data-moves", str(n))
    # ... and no card is still flying (a press lands where a person would see the card).
    page.wait_for_function(
        "() => !document.getAnimations().some(a => a.effect?.target?.classList?.contains('card')"
        " && !(a instanceof CSSAnimation))"
    )


def center(page: Any, selector: str, *, top: bool = False) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + (12 if top else box["height"] / 2)


def card_places(page: Any) -> str:
    """Where every card is drawn, by card id ("17:c3,18:p5,..."): the table as the player sees it."""
    return str(
        page.eval_on_selector_all(
            ".card", "els => els.map(e => e.dataset.id + ':' + e.dataset.place).sort().join()"
        )
    )


def top_card(column: int) -> str:
    return f'.card[data-place="c{column}"][data-top]'


def drag(page: Any, source: str, target: str) -> None:
    """Press on the source card, travel in steps (past the drag threshold), release on the target."""
    x, y = center(page, source, top=True)
    tx, ty = center(page, target)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 12, y + 12, steps=3)
    page.mouse.move(tx, ty, steps=8)
    page.mouse.up()


def play_with_mouse(page: Any, move: str, style: int) -> None:
    source = int(move[0])
    if move.endswith("f"):
        if style % 2:
            page.locator(top_card(source)).dblclick()
        else:
            drag(page, top_card(source), '[data-zone="piles"]')
    else:
        target = int(move[2])
        if style % 2:
            drag(page, top_card(source), f'[data-zone="col-{target}"]')
        else:
            page.locator(top_card(source)).click()
            x, y = center(page, f'[data-zone="col-{target}"]')
            page.mouse.click(x, y)


def test_win_a_deal_with_the_mouse(page: Any) -> None:
    from playwright.sync_api import expect

    line = winning_line(WIN_GAME, WIN_DEAL)
    open_deal(page, WIN_GAME, WIN_DEAL)
    for i, move in enumerate(line):
        play_with_mouse(page, move, i)
        expect_moves(page, i + 1)
    dialog = page.locator("#win-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("You won!")
    expect(page.locator("#move-count")).to_have_text(f"Won in {len(line)} moves")


def test_keyboard_play_undo_and_redo(page: Any) -> None:
    from playwright.sync_api import expect

    line = winning_line(WIN_GAME, WIN_DEAL)
    open_deal(page, WIN_GAME, WIN_DEAL)
    live = page.locator("#live")
    # Digits pick up from a column; f sends to a pile, another digit chooses a column.
    for i, move in enumerate(line[:3]):
        page.keyboard.press(move[0])
        page.keyboard.press("f" if move.endswith("f") else move[2])
        expect_moves(page, i + 1)
        expect(live).to_contain_text(re.compile(r" to (the .*-pile|column \d)"))
    # Arrow keys and Enter: roving focus over the columns, pick up, put down.
    move = line[3]
    page.locator('[data-zone="col-1"]').focus()
    for _ in range(int(move[0]) - 1):
        page.keyboard.press("ArrowRight")
    expect(page.locator(f'[data-zone="col-{move[0]}"]')).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".card.selected")).to_have_count(1)
    if move.endswith("f"):
        page.keyboard.press("End")
        page.keyboard.press("Enter")
    else:
        page.keyboard.press(move[2])
    expect_moves(page, 4)
    page.keyboard.press("u")
    expect_moves(page, 3)
    page.keyboard.press("u")
    expect_moves(page, 2)
    page.keyboard.press("r")
    expect_moves(page, 3)
    expect(page.locator("#redo-button")).to_be_enabled()


def test_reload_restores_the_game(page: Any) -> None:
    line = winning_line(WIN_GAME, WIN_DEAL)
    open_deal(page, WIN_GAME, WIN_DEAL)
    for i, move in enumerate(line[:4]):
        play_with_mouse(page, move, i)
        expect_moves(page, i + 1)
    places = card_places(page)
    page.reload()
    page.wait_for_selector("body.ready")
    expect_moves(page, 4)
    assert card_places(page) == places
    # Reloading without the link restores it too (the game in progress is the player's).
    page.goto("/")
    page.wait_for_selector("body.ready")
    expect_moves(page, 4)
    page.locator("#undo-button").click()
    expect_moves(page, 3)


def test_illegal_drop_is_refused_with_the_reason(page: Any) -> None:
    from playwright.sync_api import expect

    open_deal(page, WIN_GAME, WIN_DEAL)
    start = Position.start(WIN_GAME, WIN_DEAL, "auto")
    # A card from a tall column onto another column that is not vacant.
    tall = [i + 1 for i, c in enumerate(start.columns) if len(c) > 1]
    source, target = tall[0], tall[1]
    places = card_places(page)
    drag(page, top_card(source), f'[data-zone="col-{target}"]')
    message = page.locator("#message")
    expect(message).to_contain_text(f"illegal move '{source}-{target}'")
    expect(message).to_contain_text(f"column {target} is not vacant")
    expect_moves(page, 0)
    page.wait_for_timeout(300)
    assert card_places(page) == places


def test_touch_taps_play_a_move(browser: Any, live_server: Any) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
        base_url=live_server.url,
    )  # fmt: skip
    page = context.new_page()
    try:
        line = winning_line(WIN_GAME, WIN_DEAL)
        open_deal(page, WIN_GAME, WIN_DEAL)
        move = line[0]
        page.locator(top_card(int(move[0]))).tap()
        if move.endswith("f"):
            x, y = center(page, '[data-zone="piles"]')
        else:
            x, y = center(page, f'[data-zone="col-{move[2]}"]')
        page.touchscreen.tap(x, y)
        expect_moves(page, 1)
    finally:
        context.close()


def test_typed_notation_and_a_shared_link(page: Any) -> None:
    from playwright.sync_api import expect

    line = winning_line(WIN_GAME, WIN_DEAL)
    open_deal(page, WIN_GAME, WIN_DEAL)
    page.locator("#menu-button").click()
    typed = page.locator("#typed-move")
    typed.fill(line[0])
    typed.press("Enter")
    expect_moves(page, 1)
    typed.fill("9x")
    typed.press("Enter")
    expect(page.locator("#message")).to_contain_text("bad move '9x'")
    expect_moves(page, 1)
    # A link to another deal opens that deal; the address names the game in progress.
    page.goto("/?game=salic-law&deal=7&mode=manual")
    page.wait_for_selector("body.ready")
    expect(page.locator("#deal-label")).to_have_text("Deal 7 · manual")
    expect(page.locator("#title")).to_have_text("Salic Law")
    assert page.url.endswith("#/salic-law/manual/7")
    expect(page.locator('.card[data-place="x"]')).to_have_count(8)


def test_a_hint_names_the_column_that_can_never_be_cleared(page: Any) -> None:
    from playwright.sync_api import expect

    # Salic Law 7228 (manual) deals its first 40 cards onto column 1 (docs/solver.md).
    open_deal(page, "salic-law", 7228, "manual")
    page.keyboard.press("h")
    expect(page.locator("#message")).to_contain_text(
        "the cards of column 1 can never all reach the piles", timeout=15_000
    )
