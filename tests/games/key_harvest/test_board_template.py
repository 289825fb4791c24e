"""The Key Harvest board partial renders every state of bot games, makes every listed
choice clickable on the board itself, and shows a seat's screen to that seat only."""

from __future__ import annotations

import html
import re

import app.games.key_harvest as kh
from app.games.key_harvest import bot
from app.games.rng import Rng
from app.web.pages import templates
from app.web.render import game_context

NAMES = ["Ann", "Bob", "Cyd", "Dee"]


def page_view(g, seat, version=1):
    """The view dict the table would hand the page (names put into the log)."""
    seen = kh.view(g, seat)
    result = kh.result(g)
    return {
        "id": "g1", "title": "key-harvest", "status": "over" if result else "active", "version": version,
        "seat": seat, "seats": [{"seat": i, "name": NAMES[i], "open": False} for i in range(len(g.players))],
        "to_act": sorted(kh.to_act(g)), "public": seen["public"], "private": seen["private"],
        "log": [re.sub(r"\{seat(\d)\}", lambda m: NAMES[int(m.group(1))], line) for line in seen["log"]],
        "options": [o.as_json() for o in kh.options(g, seat)] if seat is not None else [],
        "result": result.as_json() if result else None, "log_first": 1, "seed_given": False,
    }


def page(g, seat, version=1):
    return templates.env.get_template("_game_body.html").render(**game_context(page_view(g, seat, version), token="t"))


def board_part(text):
    """The title partial only (not the buttons the shared template adds above it)."""
    return text[text.index('<div class="kh'):]


def clickable(text):
    return set(html.unescape(m) for m in re.findall(r'data-option="([^"]*)"', text))


def buttons_only(g, seat):
    """Choices with no board target: the shared template shows them as buttons."""
    return {o.id for o in kh.options(g, seat) if not o.target}


def play(players, seed, steps, every=1):
    """A bot game, yielding (game, seat to act) every ``every`` steps and at the end."""
    g = kh.setup(players, {}, seed)
    rng = Rng(seed + 100)
    for step in range(steps):
        if kh.result(g) is not None:
            break
        seat = min(kh.to_act(g))
        if step % every == 0:
            yield g, seat
        g = kh.apply(g, seat, bot.choose(g, seat, rng))
    yield g, None


def test_every_choice_of_whole_bot_games_is_clickable_on_the_board():
    kinds = set()
    for players, seed in ((2, 3), (3, 11), (4, 7)):
        last = None
        for g, seat in play(players, seed, 4000, every=2):
            last = g
            if seat is None:
                continue
            text = page(g, seat)
            on_board = clickable(board_part(text))
            targeted = {o.id for o in kh.options(g, seat) if o.target}
            assert targeted <= on_board, (g.queue[:1], targeted - on_board)
            assert buttons_only(g, seat) <= clickable(text)
            kinds.update(o.kind for o in kh.options(g, seat) if o.target)
        assert kh.result(last) is not None, f"{players}-player bot game did not finish"
    # The bots reached every kind of choice that points at the board.
    assert {"harvest", "play", "space", "take", "registry", "add", "start"} <= kinds


def test_every_kind_of_board_choice_is_clickable_in_random_games():
    """Random players reach the choices the bots avoid (removing a worker, sending a lifted
    worker home, every worker power); each must be clickable where it is drawn."""
    kinds = set()
    for players, seed in ((2, 1), (3, 2), (4, 3), (2, 4)):
        g = kh.setup(players, {}, seed)
        rng = Rng(seed)
        for _ in range(1500):
            if kh.result(g) is not None:
                break
            seat = min(kh.to_act(g))
            listed = kh.options(g, seat)
            targeted = {o.id for o in listed if o.target}
            assert targeted <= clickable(board_part(page(g, seat))), (g.queue[:1], targeted)
            kinds.update(o.kind for o in listed if o.target)
            onward = [o.id for o in listed if o.id != "cancel"] or [o.id for o in listed]
            g = kh.apply(g, seat, onward[rng.randrange(len(onward))])
        assert kh.result(g) is not None
    assert {"add", "bloom", "cart", "clear", "drop", "gain", "hail", "harvest", "home", "play", "reap",
            "registry", "remove", "resettle", "settle", "space", "start", "take"} <= kinds


def test_every_worker_power_choice_is_on_the_page_with_words():
    """The re-authored powers: tiles to take from the fallow fields, the registry and
    another player's store, a registry tile to carry, a store tile to drop, a field to clear
    or turn up are clickable where they lie; swapping stores is a button naming both stores."""
    from .support import game, lay, stock

    def at_d4(worker, *then, store=()):
        g = lay(game(), 0, "D3 E4 E5", harvested="C4 C5 D5")
        g.fallow.append("A1")
        for ref, bid in store:
            stock(g, *ref, bid)
        for choice in (f"play:{worker}", "space:D4", *then):
            g = kh.apply(g, 0, choice)
        return g

    cases = [at_d4("lord", store=[((1, "G8"), "green")]),  # settle: fallow, registry, store
             at_d4("red-carter", store=[((0, "G8"), "green"), ((0, "G7"), "red")]),  # drop
             at_d4("red-carter"),  # cart
             at_d4("red-drover", "reap:D3", "reap:E4", "reap:E5"),  # clear
             at_d4("priest", "gain:red", "gain:red", "gain:red", "gain:red"),  # renew
             at_d4("reeve", "gain:red", store=[((1, "G8"), "green")])]  # swap
    seen = set()
    for g in cases:
        text = page(g, 0)
        listed = kh.options(g, 0)
        assert {o.id for o in listed if o.target} <= clickable(board_part(text))
        assert buttons_only(g, 0) <= clickable(text)
        assert '<p class="bar-prompt" role="status">' in text and kh.view(g, 0)["private"]["prompt"] in html.unescape(text)
        seen.update(o.kind for o in listed)
    assert {"settle", "drop", "cart", "clear", "renew", "swap"} <= seen
    swap_page = html.unescape(page(cases[-1], 0))
    assert ("Reeve: Swap stores with Bob (you get G8 (wine) with a bid of 1 vegetables; "
            "they get an empty store)") in swap_page


def test_a_finished_game_shows_the_score_breakdown_and_no_choices():
    *_, (g, _) = play(2, 5, 4000)
    assert kh.result(g) is not None
    text = page(g, 0)
    assert "Final scores" in text and "Largest group" in text and "Second largest group" in text
    assert "Most hops" in text and "The game is over" in text
    assert not clickable(text)


def test_the_screen_shows_its_counters_to_its_own_seat_only():
    g = kh.setup(3, {}, 9)
    for p in g.players:
        p.counters = {"brown": 0, "green": 0, "orange": 0, "red": 0, "yellow": 0}
    g.players[1].counters["red"] = 7
    mine, theirs, spectator = page(g, 1), page(g, 0), page(g, None)
    assert "Your screen" in mine and 'data-counter="red"' in mine
    held = re.search(r'data-counter="red">.*?<span class="n">(\d+)</span>', mine, re.S)
    assert held and held.group(1) == "7"
    assert "Your screen" not in spectator and "data-counter=" not in spectator
    assert re.findall(r'data-counter="red">.*?<span class="n">(\d+)</span>', theirs, re.S) == ["0"]


def test_each_country_board_is_a_hex_map_of_56_spaces_with_its_references():
    g = kh.setup(2, {}, 4)
    text = board_part(page(g, None))
    assert text.count('class="kh-map"') == 2
    for seat in (0, 1):
        section = text.split('class="kh-country')[seat + 1]
        assert section.count("data-ref=") == 56
        assert ">A1<" in section and ">G8<" in section
        fields = re.findall(r'class="sp field c-(\w+) (ripe|harvested)', section)
        assert len(fields) == 2 and all(side == "ripe" for _, side in fields)  # the start pair


def test_harvested_fields_show_a_small_crop_and_unharvested_a_large_one():
    g = kh.setup(2, {}, 4)
    ref, other = sorted(g.players[0].fields)
    g.players[0].fields[ref] = True
    section = board_part(page(g, 0)).split('class="kh-country')[1]
    harvested = re.search(rf'<g class="sp field c-\w+ harvested[^>]*data-ref="{ref}">.*?</g>', section, re.S).group(0)
    ripe = re.search(rf'<g class="sp field c-\w+ ripe[^>]*data-ref="{other}">.*?</g>', section, re.S).group(0)
    assert 'width="14"' in harvested and 'width="28"' in ripe


def test_the_town_board_has_six_registry_spaces_and_ten_event_spaces_with_the_question_mark():
    g = kh.setup(4, {}, 2)
    text = board_part(page(g, 0))
    assert len(re.findall(r'data-slot="\d"', text)) == 6
    track = re.search(r'<ol class="kh-track">(.*?)</ol>', text, re.S).group(1)
    assert track.count("<li") == 10
    assert re.findall(r'<li class="kh-ev( check)?', track)[6] == " check"
    assert '<span class="n">?</span>' in track
    assert text.count('data-worker="') >= 6 + 6  # six townsfolk and the seat's six farmhands


def test_a_bid_in_the_making_shows_on_the_bidders_page_only_and_puts_the_screen_first():
    g = kh.setup(2, {}, 4)
    g = kh.apply(g, g.start_chooser, f"start:{g.start_chooser}")
    seat = g.turn
    g.players[seat].counters = {"brown": 2, "green": 0, "orange": 0, "red": 0, "yellow": 0}
    g = kh.apply(kh.apply(g, seat, "registry:0"), seat, "add:brown")
    my_page, their_page = page(g, seat), page(g, 1 - seat)
    mine, theirs = board_part(my_page), board_part(their_page)
    assert '<p class="bar-prompt" role="status">Make your bid for' in my_page  # in the action bar
    assert "Make your bid" not in their_page
    assert 'class="kh-tile c-' in mine and " bidding" in mine
    assert re.search(r'<aside class="kh-screen o-screen c-\w+ live"', mine)
    assert re.search(r'data-counter="brown">.*?class="bidding">−1<', mine, re.S)
    assert "Make your bid" not in theirs and " bidding" not in theirs


def test_a_seats_page_does_not_change_with_another_seats_counters():
    """Twin games that differ only behind seat 1's screen look the same to seat 0 and to
    a spectator, at every step of a bot game."""
    for g, seat in play(3, 6, 120, every=7):
        twin = kh.load(kh.dump(g))
        twin.players[1].counters = {c: n + 3 for c, n in twin.players[1].counters.items()}
        for viewer in (0, None):
            assert page(g, viewer) == page(twin, viewer)
        assert page(g, 1) != page(twin, 1)  # the twins do differ, on seat 1's own page


def test_the_rules_page_lists_every_worker_power_and_event():
    from app.web.render import title_content

    text = html.unescape(templates.env.get_template("rules/key-harvest.html").render(
        spec=kh.TITLE, content=title_content("key-harvest")))
    content = title_content("key-harvest")
    for event in content["events"].values():
        assert event["name"] in text and event["text"] in text
    townsfolk = [w for w in content["workers"].values() if w["colour"] is None]
    farmhands = {w["name"] for w in content["workers"].values() if w["colour"]}
    assert len(townsfolk) == 6 and len(farmhands) == 6
    for name in farmhands | {w["name"] for w in townsfolk}:
        assert f"<td>{name}" in text
    assert 'The "?" space' in text


def test_a_worker_lifted_off_by_a_field_tile_can_be_put_down_or_sent_home_from_the_page():
    """A displaced townsfolk is neither on a board nor on the town board: the page shows it
    in the status box, clickable to send it home, and its free spaces on the board."""
    g = kh.setup(2, {}, 4)
    g = kh.apply(g, g.start_chooser, f"start:{g.start_chooser}")
    seat = g.turn
    p = g.players[seat]
    p.fields = {f"{col}{row}": False for col in "ABC" for row in range(1, 9)} | {"D8": False}
    for hole in ("B4", "B6"):
        del p.fields[hole]
    p.workers = {"B4": "miller"}
    g.town.remove("miller")
    p.store = [{"tile": "B4", "bid": {"brown": 1}}]
    g = kh.apply(g, seat, f"take:{seat}:0")
    listed = {o.id: o for o in kh.options(g, seat)}
    assert {"space:B6", "home"} <= set(listed)
    text = board_part(page(g, seat))
    assert {"space:B6", "home"} <= clickable(text)
    assert "Lifted off by a field tile" in text
    assert re.search(r'<g class="sp empty can"[^>]*data-option="space:B6"', text)
    watcher = board_part(page(g, None))
    assert "Being placed:" in watcher and "data-option" not in watcher
