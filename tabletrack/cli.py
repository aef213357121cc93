"""The ``tabletrack`` command line: analyze, calibrate, judge, events, live.

Every user mistake (a missing or undecodable video, a frame with no table, an unknown game or
table, a malformed event log, tracks file, calibration or referee input) is reported as one line
``tabletrack: error: …`` on stderr with exit status 2, never a traceback. What a user can get wrong
raises a :class:`common.errors.TabletrackError` carrying that line (or the operating system's
``OSError`` for a file, or a JSON / text decoding error of a file the user gave); anything else is
a bug in tabletrack and is reported as one: its traceback and a line asking for a report, exit
status 1 (``EXIT_BUG``), so a bug never looks like a user's mistake. ``TABLETRACK_DEBUG=1`` shows
the traceback of a user error too.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from common.errors import TabletrackError, shorten
from tabletrack.outputs import ANALYZE_OUTPUTS, check_outputs, output_lock

if TYPE_CHECKING:  # for the annotations only: the commands import the heavy stages when they run
    from calibration.table import TableSpec

EXIT_BUG = 1
EXIT_USER_ERROR = 2
EXIT_INTERRUPTED = 130

#: what a user can get wrong: the project's errors, files the OS cannot give, and files that are
#: not the JSON or text they should be (decoding fails before any reader of ours sees them)
USER_ERRORS: tuple[type[BaseException], ...] = (OSError, json.JSONDecodeError, UnicodeError)


def _repo_root() -> Path:
    return Path(__file__).resolve().parents[1]


def default_sample_video() -> Path:
    """The bundled sample that ``analyze`` uses when no video is given."""
    return _repo_root() / "sample_videos" / "point_2a_1080p60.mp4"


#: the game ``analyze`` and ``judge`` officiate when ``--game`` is not given
DEFAULT_GAME = "three-cushion"

GAMES_HELP = (
    "three-cushion, one-cushion, libre, balkline-47-2, balkline-47-1, balkline-71-2, pentathlon, "
    "triathlon, nine-ball, ten-ball, seven-ball, six-ball, rotation, eight-ball, straight-pool (14.1), "
    "snooker"
)


def _add_table_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--table",
        default=None,
        help="table spec name (carom, pool, pool_8ft, pool_7ft, snooker) or JSON "
        "file (default: the table of --game: carom match table, pool 9 ft or snooker)",
    )
    p.add_argument(
        "--table-size", metavar="LxW", help="playing surface in mm, e.g. 2840x1420, if it differs from the spec"
    )
    p.add_argument("--ball-mm", type=float, metavar="D", help="ball diameter in mm, if it differs from the spec")


def table_from_args(args: argparse.Namespace) -> TableSpec:
    """The table spec named by --table, with --table-size and --ball-mm applied."""
    from calibration.table import TableSpecError, check_sizes, load_table

    name = args.table
    if name is None:
        from rules.core.games import parse_game

        game = getattr(args, "game", None)
        name = parse_game(game).family.value if game else "carom"
    table = load_table(name)
    length = width = None
    if getattr(args, "table_size", None):
        try:
            length, width = (float(v) for v in args.table_size.lower().split("x"))
        except ValueError:
            raise TableSpecError(
                f"--table-size: expected LENGTHxWIDTH in mm such as 2840x1420, got {args.table_size!r}"
            ) from None
        check_sizes(length, width, table.ball_diameter_mm, "--table-size")
    ball = getattr(args, "ball_mm", None)
    if ball is not None and not 20.0 <= ball <= 120.0:
        raise TableSpecError(f"--ball-mm: expected a ball diameter of 20-120 mm, got {ball}")
    return table.with_size(length, width, ball)


def _add_camera_options(p: argparse.ArgumentParser) -> None:
    """The table and what the user knows of the camera: shared by analyze and calibrate."""
    _add_table_options(p)
    p.add_argument(
        "--corners",
        metavar="X1,Y1,...,X4,Y4",
        help="manual calibration: the four playing-surface corners "
        "in px (head-right, foot-right, foot-left, head-left), or a JSON file holding them",
    )
    p.add_argument("--flip", action="store_true", help="take the other end of the table as the head")
    p.add_argument(
        "--camera-height",
        type=float,
        metavar="MM",
        help="measured height of the lens above the cloth "
        "(sharpens the calibration of a camera straight over the table)",
    )


def _add_analyze(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "analyze",
        help="analyze a video: events, calls, tracks and an annotated video",
        description="Analyze a video of a table: writes events.jsonl, calls.jsonl and tracks.csv as they are "
        "found, then an annotated MP4, and prints a summary of the shots. Without VIDEO, analyzes "
        "the bundled sample clip.",
    )
    p.add_argument("video", nargs="?", help="video file (default: the bundled sample clip)")
    p.add_argument("--game", help=f"game to officiate ({GAMES_HELP}); default three-cushion")
    p.add_argument(
        "--calibration",
        metavar="FILE",
        help="calibration JSON from `tabletrack calibrate` (default: calibrate from the video)",
    )
    _add_camera_options(p)
    p.add_argument("--input", metavar="REFEREE.json", help="referee input: starting state, fouls seen, players")
    p.add_argument("--out", default="out", metavar="DIR", help="output folder (default: ./out)")
    p.add_argument("--no-video", action="store_true", help="do not write the annotated MP4")
    p.add_argument(
        "--detector",
        default="auto",
        choices=("auto", "yolo", "classical"),
        help="ball detector: the trained YOLO model (models/; default on pool and snooker tables) or the "
        "classical colour detector (carom only; default there)",
    )
    p.add_argument(
        "--key-every",
        type=int,
        default=6,
        metavar="N",
        help="the detector looks at the whole table on every Nth analysed frame and wherever the balls "
        "do not move as predicted, and only around the predicted balls in between (the YOLO model's "
        "classifier follows them; the classical detector measures windows around them) "
        "(default 6; 1: the whole table on every frame)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_analyze)


def _add_calibrate(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "calibrate",
        help="solve the camera model from an image or a video's first frame",
        description="Find the table in a frame (cloth, cushion lines, diamonds), solve the camera model and "
        "write it as JSON, with an image of the fitted table beside it.",
    )
    p.add_argument("source", help="image or video file")
    p.add_argument("-o", "--output", default="calib.json", help="calibration JSON to write (default calib.json)")
    _add_camera_options(p)
    p.set_defaults(func=_cmd_calibrate)


def _add_judge(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "judge",
        help="make the calls of any event log",
        description="Judge an events.jsonl (from video analysis, a simulator or written by hand) and write one "
        "call per shot.",
    )
    p.add_argument("events", help="events.jsonl")
    p.add_argument("--game", help=f"game ({GAMES_HELP}); default three-cushion")
    p.add_argument("--input", metavar="REFEREE.json", help="referee input: starting state, fouls seen, players")
    p.add_argument("-o", "--output", metavar="CALLS.jsonl", help="write the calls here (default: print them)")
    p.add_argument("--sheet", metavar="SHEET.json", help="write the score sheet (JSON) here")
    _add_table_options(p)
    p.set_defaults(func=_cmd_judge)


def _add_events(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "events",
        help="infer the event log from trajectories of another tracking system",
        description="Read TRACKS.csv (columns t,ball,x_mm,y_mm; any sampling rate) and write the event log, "
        "so three-cushion counts can be verified without video.",
    )
    p.add_argument("tracks", help="tracks CSV with columns t,ball,x_mm,y_mm")
    _add_table_options(p)
    p.add_argument("-o", "--output", metavar="EVENTS.jsonl", help="write the events here (default: print them)")
    p.add_argument("--game", help="also judge the events with this game and print the calls")
    p.add_argument("--input", metavar="REFEREE.json", help="referee input for --game (starting state, fouls seen)")
    p.set_defaults(func=_cmd_events)


def _add_live(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "live",
        help="officiate live: a camera in, calls out as the balls stop, a scoreboard, an overlay, referee controls",
        description="Officiate from a camera, a stream or a video file played at its own rate: the stages of "
        "analyze on every frame, each call published as the balls come to rest, served on a local web "
        "server (scoreboard /, overlay /overlay, referee /referee behind a token printed at start). The "
        "match is kept in an SQLite database: start again with the same --match to resume it.",
    )
    p.add_argument(
        "--source", required=True, metavar="SRC", help="camera index (0), stream URL (rtsp://…, http://…) or video file"
    )
    p.add_argument("--game", help=f"game to officiate ({GAMES_HELP}); default three-cushion")
    p.add_argument(
        "--input", metavar="REFEREE.json", help="referee input the match starts from (players, match, start)"
    )
    p.add_argument(
        "--calibration",
        metavar="FILE",
        help="calibration JSON from `tabletrack calibrate` (default: calibrate at start)",
    )
    _add_camera_options(p)
    p.add_argument(
        "--match",
        default="match",
        metavar="DIR|FILE.sqlite",
        help="the match: a folder (its match.sqlite, events.jsonl, referee.json, calls.jsonl) or the database "
        "file; an existing one is resumed (default: ./match)",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    p.add_argument(
        "--realtime",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="play a video file at its own frame rate, dropping frames when analysis falls behind (default); "
        "--no-realtime reads it as fast as the analysis goes, every frame analysed",
    )
    p.add_argument(
        "--loop", action="store_true", help="play a video file again and again (a long stream for benchmarks)"
    )
    p.add_argument("--queue", type=int, default=24, metavar="N", help="frames queued between capture and analysis")
    p.add_argument(
        "--check-every",
        type=float,
        default=5.0,
        metavar="S",
        help="seconds between checks that the camera has not moved",
    )
    p.add_argument(
        "--detector", default="auto", choices=("auto", "yolo", "classical"), help="ball detector (as for analyze)"
    )
    p.add_argument("--key-every", type=int, default=6, metavar="N", help="as for analyze")
    p.add_argument("--token", help=argparse.SUPPRESS)  # tests: a known token instead of a random one
    p.add_argument(
        "--exit-when-done", action="store_true", help="exit when the source ends (default: keep serving the match)"
    )
    p.add_argument("--ready-file", help=argparse.SUPPRESS)  # tests: where to write the URL and token once serving
    p.set_defaults(func=_cmd_live)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tabletrack",
        description="Officiate billiards from an overhead camera: ball paths, contacts, cushions and the call of "
        "every shot.",
    )
    from tabletrack import __version__

    parser.add_argument("--version", action="version", version=f"tabletrack {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_analyze(sub)
    _add_calibrate(sub)
    _add_judge(sub)
    _add_events(sub)
    _add_live(sub)
    return parser


# -- commands -------------------------------------------------------------------------------------
def process_started_at() -> float:
    """``time.perf_counter()`` at this process's start (Linux: from /proc, so the interpreter's
    start-up and the imports count in the whole command's time); elsewhere, now."""
    now = time.perf_counter()
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        with open("/proc/uptime", encoding="ascii") as f:
            uptime_s = float(f.read().split()[0])
        age_s = uptime_s - int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22: starttime
    except (OSError, ValueError, IndexError):
        return now
    return now - min(max(0.0, age_s), 3600.0)


def _cmd_analyze(args: argparse.Namespace) -> int:
    from tabletrack.pipeline import AnalyzeOptions, analyze_video

    video = Path(args.video) if args.video else default_sample_video()
    if args.key_every < 1:
        raise TabletrackError(f"--key-every: expected a number of frames >= 1, got {args.key_every}")
    opts = AnalyzeOptions(
        game=args.game or DEFAULT_GAME,
        game_given=args.game is not None,
        table=table_from_args(args),
        calibration=args.calibration,
        corners=args.corners,
        referee_input=args.input,
        out_dir=Path(args.out),
        annotated_video=not args.no_video,
        progress=not args.quiet,
        camera_height_mm=args.camera_height,
        flip=args.flip,
        detector=args.detector,
        yolo_key_every=args.key_every,
        started_at=process_started_at(),
        # the calls printed the moment they are final, the annotated video's end after them
        on_calls=lambda text: print(text + "\n", flush=True),
    )
    out = Path(args.out)
    corners_file = args.corners if args.corners and Path(args.corners).is_file() else None
    check_outputs(
        {"the video": video, "--calibration": args.calibration, "--input": args.input, "--corners": corners_file},
        {f"--out's {name}": out / name for name in ANALYZE_OUTPUTS},
    )
    with output_lock(out, folder=True):
        result = analyze_video(video, opts)
    print(result.summary)
    return 0


def _cmd_calibrate(args: argparse.Namespace) -> int:
    from tabletrack.calibrate_cmd import run_calibrate

    output = Path(args.output)
    corners_file = args.corners if args.corners and Path(args.corners).is_file() else None
    check_outputs(
        {"the image or video": args.source, "--corners": corners_file},
        {"-o": output, "-o's check image": output.with_suffix(".png")},
    )
    with output_lock(output, folder=False):
        report = run_calibrate(
            Path(args.source), output, table_from_args(args), args.corners, args.flip, args.camera_height
        )
    print(report)
    return 0


def _cmd_judge(args: argparse.Namespace) -> int:
    from tabletrack.judge_cmd import run_judge

    check_outputs(
        {"the event log": args.events, "--input": args.input, "--table": _table_file(args)},
        {"-o": args.output, "--sheet": args.sheet},
    )
    with contextlib.ExitStack() as locks:
        for out in (args.output, args.sheet):
            if out:
                locks.enter_context(output_lock(out, folder=False))
        report = run_judge(
            Path(args.events),
            args.game or DEFAULT_GAME,
            args.input,
            args.output,
            args.sheet,
            table_from_args(args),
            game_given=args.game is not None,
        )
    print(report)
    return 0


def _cmd_events(args: argparse.Namespace) -> int:
    from tabletrack.events_cmd import run_events

    check_outputs(
        {"the tracks file": args.tracks, "--input": args.input, "--table": _table_file(args)}, {"-o": args.output}
    )
    with contextlib.ExitStack() as locks:
        if args.output:
            locks.enter_context(output_lock(args.output, folder=False))
        report = run_events(Path(args.tracks), table_from_args(args), args.output, args.game, args.input)
    print(report)
    return 0


def _cmd_live(args: argparse.Namespace) -> int:
    from rules import parse_game
    from tabletrack.live.runner import LiveOptions
    from tabletrack.live.server import run_live
    from tabletrack.referee_file import load_referee_input

    game = args.game or DEFAULT_GAME
    g = parse_game(game)
    if args.input:
        load_referee_input(args.input, g, args.game is not None)  # a bad file fails before the camera is opened
    if args.queue < 2:
        raise TabletrackError(f"--queue: expected at least 2 frames, got {args.queue}")
    if not args.check_every > 0:
        raise TabletrackError(f"--check-every: expected a positive number of seconds, got {args.check_every}")
    if not 0 <= args.port <= 65535:
        raise TabletrackError(f"--port: expected 0-65535, got {args.port}")
    if args.key_every < 1:
        raise TabletrackError(f"--key-every: expected a number of frames >= 1, got {args.key_every}")
    match = Path(args.match)
    check_outputs(
        {
            "--source": args.source if Path(args.source).is_file() else None,
            "--input": args.input,
            "--calibration": args.calibration,
        },
        {"--match": match if match.suffix == ".sqlite" else match / "match.sqlite"},
    )
    opts = LiveOptions(
        game=game,
        table=table_from_args(args),
        referee_input=args.input,
        calibration=args.calibration,
        corners=args.corners,
        flip=args.flip,
        camera_height_mm=args.camera_height,
        detector=args.detector,
        key_every=args.key_every,
        realtime=args.realtime,
        queue_frames=args.queue,
        check_every_s=args.check_every,
        loop=args.loop,
    )
    return run_live(
        args.source,
        opts,
        match,
        host=args.host,
        port=args.port,
        token=args.token,
        exit_when_done=args.exit_when_done,
        ready_file=Path(args.ready_file) if args.ready_file else None,
    )


def _table_file(args: argparse.Namespace) -> str | None:
    """--table when it names a JSON file (not a bundled spec), for the inputs an output may not replace."""
    t = getattr(args, "table", None)
    return t if t and Path(t).is_file() else None


def main(argv: Sequence[str] | None = None) -> int:
    # FFmpeg inside OpenCV prints its own complaints ("moov atom not found") on stderr; the user
    # gets our one-line message instead.
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")
    # The numerical work here is many small problems; threaded BLAS only adds contention (an SVD
    # measured 100x slower threaded on a busy 2-core machine). Must be set before numpy loads.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USER_ERROR
    func: Callable[[argparse.Namespace], int] = args.func
    user_errors: tuple[type[BaseException], ...] = (TabletrackError, *USER_ERRORS)
    try:
        return func(args)
    except KeyboardInterrupt:
        print("tabletrack: interrupted; what was found so far is in the output files named *.partial", file=sys.stderr)
        return EXIT_INTERRUPTED
    except user_errors as e:
        if os.environ.get("TABLETRACK_DEBUG"):
            raise
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        if isinstance(e, OSError) and e.filename and str(e.filename) not in msg:
            msg = f"{e.filename}: {msg}"
        print(f"tabletrack: error: {shorten(msg, 500)}", file=sys.stderr)
        return EXIT_USER_ERROR
    except Exception:
        traceback.print_exc()
        print(
            "tabletrack: internal error: this is a bug in tabletrack, not a problem with your input; "
            "please report it with the command line and the traceback above",
            file=sys.stderr,
        )
        return EXIT_BUG


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
