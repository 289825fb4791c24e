"""Hand-made requests to the pages get a page that says what is wrong, never a 500."""

from __future__ import annotations

SAME_SITE = {"Origin": "http://testserver"}


async def test_a_file_sent_to_the_new_game_form_is_refused_in_the_page(client):
    page = await client.post("/new/tiny-towns", data={"name1": "Bob"},
                             files={"seats": ("hostname", b"2\n", "text/plain")}, headers=SAME_SITE)
    assert page.status_code == 422
    assert "The field &#39;seats&#39; must be typed text, not a file." in page.text
    assert 'id="new-game"' in page.text  # the form again, to correct


async def test_a_file_sent_as_a_name_to_claim_a_seat_is_refused(client):
    created = (await client.post("/api/games", json={"title": "tiny-towns", "players": ["Ann", None]})).json()
    invite = f"/g/{created['id']}/seat/{created['seats'][1]['token']}"
    page = await client.post(invite + "/claim", files={"name": ("name.txt", b"Cy", "text/plain")}, headers=SAME_SITE)
    assert page.status_code == 422
    assert "must be typed text, not a file" in page.text
    view = (await client.get(f"/api/games/{created['id']}")).json()
    assert view["seats"][1]["open"] is True  # nothing was stored


async def test_a_seat_number_no_game_can_have_gets_a_page_not_a_500(client):
    created = (await client.post("/api/games", json={"title": "tiny-towns", "players": ["Ann", "Bob"]})).json()
    host = f"/g/{created['id']}/host/{created['host_token']}"
    for seat in ("99999999999999999999", "64", "-1"):
        for change in ("reopen", "new-link", "name"):
            page = await client.post(f"{host}/seat/{seat}/{change}", data={"name": "Zed"}, headers=SAME_SITE)
            assert page.status_code == 422, (seat, change, page.text[:200])
            assert "This address is not one Keydom makes" in page.text
            assert page.headers["content-type"].startswith("text/html")
    api = await client.post(f"/api/games/{created['id']}/host/seats/99999999999999999999/reopen",
                            headers={"Authorization": f"Bearer {created['host_token']}"})
    assert api.status_code == 422 and "seat" in api.json()["detail"]
