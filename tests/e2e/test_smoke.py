from __future__ import annotations


async def test_lobby_to_first_play(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    r = await alice.slash(channel, "zipzap new", seats=3)
    print(r.ephemeral, r.response.content)
    lobby = channel.last_message
    print(lobby.embeds[0].to_dict())
    r = await bob.click(lobby, label="Join")
    r = await alice.click(lobby, label="Add computer: casual")
    r = await alice.click(lobby, label="Start")
    msg = channel.last_message
    print(msg.embeds[0].to_dict())
    r = await alice.click(msg, label="My hand")
    print(r.ephemeral, r.response.embeds[0].to_dict())
    await env.advance_time(5)
    print(channel.last_message.embeds[0].to_dict())
