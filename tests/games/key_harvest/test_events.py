"""Event tiles: drawn on refilling the registry, resolved for everyone clockwise from the
drawer; events drawn during an event are set aside; the "?" check and its repetition; the
tenth event and the final turns; an empty bag."""

from __future__ import annotations

import app.games.key_harvest as kh
from app.games.key_harvest.content import EVENTS, is_event

from .support import act, game, give, held, ids, lay, stock, take_out, top_of_bag


def draw_after_bid(g, *tiles):
    """Seat 0 (the turn player) puts registry tile 0 into its store; the refill draws ``tiles`` first."""
    give(g, 0, "red")
    top_of_bag(g, *tiles)
    return act(g, 0, "registry:0", "add:red", "confirm")


def test_an_event_drawn_on_refill_goes_on_the_track_and_the_drawing_goes_on():
    g = draw_after_bid(game(), "E01", "A1")
    assert g.track == ["E01"] and g.registry[0] == "A1"


def test_blight_turns_a_crop_to_its_harvested_side_on_every_board():
    g = lay(lay(game(), 0, "C5 C4"), 1, "D2")  # C5 and D2 grow hops
    g = draw_after_bid(g, "E01", "A1")
    assert g.players[0].fields == {"C5": True, "C4": False} and g.players[1].fields == {"D2": True}


def test_rain_turns_a_crop_back_up_on_every_board():
    g = lay(lay(game(), 0, "", harvested="C4 C5"), 1, "", harvested="E3")  # C4 and E3 grow vegetables
    g = draw_after_bid(g, "E03", "A1")
    assert g.players[0].fields == {"C4": False, "C5": True} and g.players[1].fields == {"E3": False}


def test_market_day_each_player_chooses_a_counter_clockwise_from_the_drawer():
    g = game(3, start=1)
    give(g, 1, "red")
    top_of_bag(g, "E05", "A1")
    g = act(g, 1, "registry:0", "add:red", "confirm")
    order = []
    while g.queue and g.queue[0]["do"] == "gain":
        seat = g.queue[0]["seat"]
        order.append(seat)
        g = act(g, seat, "gain:wheat" if "gain:wheat" in ids(g, seat) else "gain:yellow")
    assert order == [1, 2, 0]
    assert all(held(g, s).get("yellow") == 1 for s in range(3))


def test_a_gift_of_a_named_crop_is_handed_out_without_asking():
    g = draw_after_bid(game(), "E06", "A1")
    assert held(g, 0) == {"yellow": 1} and held(g, 1) == {"yellow": 1} and g.queue[0]["do"] == "more"


def test_a_gift_of_a_crop_that_ran_out_lets_each_player_choose():
    g = game()
    g.supply["yellow"] = 0
    g = draw_after_bid(g, "E06", "A1")
    assert kh.to_act(g) == {0} and "gain:yellow" not in ids(g, 0) and "gain:brown" in ids(g, 0)


def test_hiring_fair_sends_every_value_one_farmhand_home():
    g = lay(lay(game(), 0, "C3 C4 D4"), 1, "F4 F5")
    g.players[0].workers.update({"D3": "red-gleaner", "B5": "red-reaper"})
    g.players[1].workers["E4"] = "yellow-ploughboy"
    g = draw_after_bid(g, "E08", "A1")
    assert g.players[0].workers == {"B5": "red-reaper"} and g.players[1].workers == {}


def test_town_meeting_sends_every_townsfolk_back():
    g = game()
    g.players[1].workers["D4"] = "lord"
    g.town.remove("lord")
    g.players[0].workers["D3"] = "red-gleaner"
    g = draw_after_bid(g, "E09", "A1")
    assert "lord" in g.town and g.players[1].workers == {} and g.players[0].workers == {"D3": "red-gleaner"}


def test_enclosure_clears_the_registry_to_the_fallow_fields_and_refills_setting_events_aside():
    g = game()
    before = [r for r in g.registry[1:]]
    g = draw_after_bid(g, "E10", "A1", "E05", "A2", "A3", "A4", "A5", "A6", "A7")
    assert g.fallow == before  # the space being refilled was empty
    assert g.registry == ["A1", "A2", "A3", "A4", "A5", "A6"]
    assert g.track == ["E10"] and "E05" in g.bag and g.set_aside == []  # set aside, then back in the bag
    assert any("set aside" in line for line in g.log) and g.bag.count("E05") == 1


def test_resettlement_lets_each_player_take_a_fallow_tile():
    g = game()
    for ref in ("A1", "A2"):
        take_out(g, ref)
        g.fallow.append(ref)
    g = draw_after_bid(g, "E11", "B1")
    assert kh.to_act(g) == {0} and set(ids(g, 0)) == {"resettle:A1", "resettle:A2", "done"}
    g = act(g, 0, "resettle:A2")
    assert ids(g, 1) == ["resettle:A1", "done"]
    g = act(g, 1, "done")
    assert "A2" in g.players[0].fields and g.fallow == ["A1"]


def test_hailstorm_makes_each_player_turn_one_unharvested_field_down():
    g = lay(game(), 0, "C3 C4")
    g = draw_after_bid(g, "E12", "A1")
    assert ids(g, 0) == ["hail:C3", "hail:C4"]  # compulsory: no pass
    g = act(g, 0, "hail:C4")
    assert g.players[0].fields == {"C3": False, "C4": True}
    assert g.queue[0]["do"] == "more"  # seat 1 has no field: nothing to ask


def test_fertile_year_lets_each_player_turn_a_harvested_field_up():
    g = lay(lay(game(), 0, "", harvested="C3"), 1, "", harvested="G8")
    g = draw_after_bid(g, "E13", "A1")
    g = act(g, 0, "bloom:C3")
    assert ids(g, 1) == ["bloom:G8", "done"]
    g = act(g, 1, "done")
    assert g.players[0].fields == {"C3": False} and g.players[1].fields == {"G8": True}


def test_bailiffs_empty_every_store_and_hand_the_bids_back():
    g = stock(game(), 1, "G8", "green green")
    g = draw_after_bid(g, "E14", "A1")
    assert all(p.store == [] for p in g.players)
    assert held(g, 1) == {"green": 2} and held(g, 0) == {"red": 1}  # seat 0's new bid came back too
    assert set(g.fallow) >= {"G8"}


def test_every_event_is_covered_above():
    covered = {"E01", "E03", "E05", "E06", "E08", "E09", "E10", "E11", "E12", "E13", "E14"}
    same_kind = {e.id for e in EVENTS.values() if any(EVENTS[c].kind == e.kind for c in covered)}
    assert same_kind == set(EVENTS)


# --- The "?" check ---

def with_track(g, n):
    """Put n events on the track (taken from the bag)."""
    events = [t for t in g.bag if is_event(t)][:n]
    for e in events:
        g.bag.remove(e)
    g.track = events
    return g


def test_the_check_sends_events_one_and_two_back_when_anyone_has_fewer_than_seven_tiles():
    g = with_track(game(), 6)
    lay(g, 0, "A1 A2 A3 A4 A5 A6 A7")
    lay(g, 1, "G1 G2 G3 G4 G5 G6")  # six: one short
    first_two, rest = g.track[:2], g.track[2:]
    nxt = next(t for t in g.bag if is_event(t))
    g = draw_after_bid(g, nxt, "B1")
    assert g.track == rest + [nxt] and len(g.track) == 5
    assert set(first_two) <= set(g.bag) and g.checks == 1


def test_the_check_passes_when_everyone_has_seven_tiles_counting_workers():
    g = with_track(game(), 6)
    lay(g, 0, "A1 A2 A3 A4 A5 A6 A7")
    lay(g, 1, "G1 G2 G3 G4 G5 G6")
    g.players[1].workers["F8"] = "yellow-gleaner"
    nxt = next(t for t in g.bag if is_event(t))
    g = draw_after_bid(g, nxt, "B1")
    assert len(g.track) == 7 and g.checks == 1


def test_the_check_is_made_again_every_time_an_event_lands_on_the_question_mark():
    g = with_track(game(), 6)
    events = [t for t in g.bag if is_event(t)][:3]
    g = draw_after_bid(g, events[0], "B1")  # nobody has seven tiles: back to five
    assert len(g.track) == 5
    g = act(g, 0, "done", "end")
    give(g, 1, "red")
    top_of_bag(g, events[1], events[2], "B2")
    g = act(g, 1, "registry:1", "add:red", "confirm")
    assert g.checks == 2 and len(g.track) == 5


def test_events_sent_back_by_the_check_are_not_drawn_again_in_the_same_refill():
    g = with_track(game(), 6)
    g.bag = [t for t in g.bag if is_event(t)]  # only events left, nobody with seven tiles
    g = draw_after_bid(g)
    assert g.registry[0] is None and len(g.track) >= 5 and kh.result(g) is None


# --- An empty bag ---

def test_an_empty_bag_leaves_the_registry_space_empty_and_the_game_goes_on():
    g = game()
    g.bag = []
    g = draw_after_bid(g)
    assert g.registry[0] is None and kh.to_act(g) == {0}
    assert any("stays empty" in line for line in g.log)


def test_no_field_tiles_left_anywhere_to_draw_begins_the_end():
    g = game()
    g.bag = []
    g.registry = [g.registry[0]] + [None] * 5
    g = draw_after_bid(g)
    assert g.ending and not any(g.registry)


# --- The tenth event and the final turns ---

def test_after_the_tenth_event_the_drawer_finishes_and_everyone_takes_two_more_turns():
    g = with_track(game(3, start=1), 9)
    lay(g, 0, "A1 A2 A3 A4 A5 A6 A7")
    give(g, 1, "red")
    tenth = next(t for t in g.bag if is_event(t))
    top_of_bag(g, tenth, "B1")
    g = act(g, 1, "registry:0", "add:red", "confirm")
    assert g.ending and g.final_turns is None and kh.to_act(g) == {1}  # the drawer's turn goes on
    turns = []
    g = act(g, 1, "done", "end")
    while kh.result(g) is None:
        turns.append(g.turn)
        g = act(g, g.turn, "end")
    assert turns == [2, 0, 1, 2, 0, 1]  # ending with the drawer's second turn


def test_events_drawn_in_the_final_turns_are_ignored():
    g = with_track(game(), 10)
    g.ending = True
    spare = next(t for t in g.bag if is_event(t))
    g = draw_after_bid(g, spare, "B1")
    assert g.ignored == [spare] and len(g.track) == 10 and g.registry[0] == "B1"
