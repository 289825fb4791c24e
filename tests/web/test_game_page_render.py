"""The shared game page: the tab names the game and its players, buttons and prompts name
players, every board choice has its copy in the action bar, a finished game puts its result
first, and a solo game shows its score and rating instead of a winner."""

from __future__ import annotations

import re

from app.games.playout import bot_playout
from app.web.pages import templates
from app.web.render import game_context, namer, status_line, tab_title


def a_view(**changes):
    view = {"id": "g1", "title": "keythedral", "status": "active", "version": 3, "seat": 0, "to_act": [0],
            "public": {}, "private": None, "result": None, "log": [], "log_total": 0, "log_first": 1,
            "seed_given": False,
            "seats": [{"seat": 0, "name": "Ann", "open": False}, {"seat": 1, "name": "Bob", "open": False}],
            "options": []}
    view.update(changes)
    return view


def test_labels_and_prompts_name_players_instead_of_numbering_them():
    named = namer({0: "Ann", 1: "Bob"})
    assert named("Player 2 starts next round") == "Bob starts next round"
    assert named("Let it go: player 1 pays you 3") == "Let it go: Ann pays you 3"
    assert named("player 7 is not at this table") == "player 7 is not at this table"
    context = game_context(a_view(options=[{"id": "start:1", "label": "Player 2 starts next round",
                                            "kind": "start", "target": "seat:1"}],
                                  private={"prompt": "Match player 2's bid"}), token="t")
    assert context["view"]["options"][0]["label"] == "Bob starts next round"
    assert context["private"]["prompt"] == "Match Bob's bid"


def test_the_tab_names_the_title_and_the_players():
    view = a_view()
    assert tab_title(view, {0: "Ann", 1: "Bob"}) == "Keythedral: Ann, Bob — Keydom"


def test_untargeted_choices_are_buttons_and_board_choices_have_a_hidden_copy_in_the_bar():
    options = [{"id": "pass", "label": "Pass", "kind": "pass", "target": None},
               {"id": "number:2", "label": "Cottage 2", "kind": "number", "target": "cottage:0-2"},
               {"id": "again", "label": "Same place again", "kind": "number", "target": "cottage:0-2"}]
    context = game_context(a_view(options=options), token="t")
    assert [o["id"] for o in context["buttons"]] == ["pass"]
    assert context["by_target"] == {"cottage:0-2": context["view"]["options"][1]}
    bar = templates.env.get_template("_game_body.html").render(**dict(context, title_partial="_result.html",
                                                                        view=dict(context["view"], result=None)))
    bar = bar[:bar.index("</section>", bar.index('class="prompt"'))]
    assert re.search(r'<button[^>]*class="choice kind-pass"[^>]*data-option="pass"', bar)
    # a hidden row of copies, shown by game.js when no choice of the kind is in view
    row = re.search(r'<div class="echo-row" data-kind="number" hidden>(.*?)</div>', bar).group(1)
    assert re.findall(r'data-echo="([^"]+)"', row) == ["number:2", "again"]
    assert 'class="bar-notice" role="alert" hidden' in bar


def render_result(scores, winners, names):
    view = {"result": {"scores": scores, "winners": winners, "reason": ""}}
    return templates.env.get_template("_result.html").render(view=view, names=names)


def test_the_result_ranks_the_players_and_ties_share_a_place():
    scores = [{"seat": 0, "score": 9, "breakdown": {"Fields": 9}, "tiebreak": [], "note": ""},
              {"seat": 1, "score": 15, "breakdown": {"Fields": 15}, "tiebreak": [], "note": ""},
              {"seat": 2, "score": 9, "breakdown": {"Fields": 9}, "tiebreak": [], "note": ""}]
    page = render_result(scores, [1], {0: "Ann", 1: "Bob", 2: "Cyd"})
    ranking = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page[page.index('<ol class="ranking">'):page.index("</ol>")]))
    assert ranking.split() == ["1st", "Bob", "15", "VP", "winner", "2nd", "Ann", "9", "VP", "2nd", "Cyd", "9", "VP"]


def test_a_finished_game_shows_its_result_before_the_board():
    played = bot_playout("tiny-towns", 2, seed=3)
    view = a_view(title="tiny-towns", status="over", to_act=[], result=played.title.result(played.state).as_json(),
                  public=played.title.view(played.state, 0)["public"], private=played.title.view(played.state, 0)["private"])
    page = templates.env.get_template("_game_body.html").render(**game_context(view, token="t"))
    assert page.index('class="result"') < page.index('class="tt"')


def test_a_solo_game_shows_the_score_and_rating_not_a_winner():
    played = bot_playout("tiny-towns", 1, seed=3)
    result = played.title.result(played.state).as_json()
    own = result["scores"][0]
    view = a_view(title="tiny-towns", status="over", to_act=[], result=result,
                  seats=[{"seat": 0, "name": "Sol", "open": False}])
    line = status_line(view, {0: "Sol"})
    assert line == f"Game over — Sol scored {own['score']} VP ({own['note']})."
    assert "wins" not in line and own["note"].startswith("Solo rating")
    page = render_result(result["scores"], result["winners"], {0: "Sol"})
    assert "winner" not in page and "Final score<" in page and own["note"] in page
