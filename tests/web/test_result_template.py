"""The end of a game: scores in finishing order, tiebreak included, each note with its table."""

from __future__ import annotations

from app.web.pages import templates


def render(scores, winners):
    view = {"result": {"scores": scores, "winners": winners, "reason": ""}}
    return templates.env.get_template("_result.html").render(view=view, names={0: "Ann", 1: "Bob", 2: "Cyd"})


def test_a_tied_score_lists_the_tiebreak_winner_first_with_its_note_inside_its_table():
    scores = [
        {"seat": 0, "score": 15, "breakdown": {"Fields": 15}, "tiebreak": [10, 3], "note": "Ann: 10 fields"},
        {"seat": 1, "score": 9, "breakdown": {"Fields": 9}, "tiebreak": [9, 1], "note": ""},
        {"seat": 2, "score": 15, "breakdown": {"Fields": 15}, "tiebreak": [12, 0], "note": "Cyd: 12 fields"},
    ]
    page = render(scores, [2])
    assert page.index("Cyd — 15 VP — winner") < page.index("Ann — 15 VP") < page.index("Bob — 9 VP")
    cyd_table = page[page.index("Cyd — 15 VP"):page.index("</table>", page.index("Cyd — 15 VP"))]
    assert "Cyd: 12 fields" in cyd_table
