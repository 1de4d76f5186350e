"""Runs *inside* GNU Backgammon, never imported: prints the Match IDs gnubg gives to
the match states described (JSON lines) in $PIPGAMMON_ORACLE_IN, to $PIPGAMMON_ORACLE_OUT."""

import json
import os

import gnubg


def main():
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    gnubg.command("set automatic roll off")
    with open(os.environ["PIPGAMMON_ORACLE_IN"]) as source, open(
        os.environ["PIPGAMMON_ORACLE_OUT"], "w"
    ) as sink:
        for line in source:
            case = json.loads(line)
            gnubg.command(f"new match {case['length']}")
            gnubg.command("set score {} {}".format(*case["score"]))
            gnubg.command("set crawford " + ("on" if case["crawford"] else "off"))
            gnubg.command(f"set turn {case['turn']}")
            gnubg.command(f"set cube value {case['cube']}")
            if case["owner"] is None:
                gnubg.command("set cube centre")
            else:
                gnubg.command(f"set cube owner {case['owner']}")
            if case["dice"]:
                gnubg.command("set dice {} {}".format(*case["dice"]))
            case["match_id"] = gnubg.matchid()
            sink.write(json.dumps(case) + "\n")


main()
