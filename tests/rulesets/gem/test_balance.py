"""GEM's point study (GEM-4): duels by GEM's rules against the point formula."""

from rulesets.gem.chapters import balance


def test_pairings_are_reproducible_and_distinct():
    a = balance.pairings(10, seed=3)
    b = balance.pairings(10, seed=3)
    assert [(p.a, p.b) for p in a] == [(p.a, p.b) for p in b]
    assert len({(str(p.a), str(p.b)) for p in a}) == 10
    assert all(p.a != p.b for p in a)


def test_prediction_is_the_point_share():
    p = balance.Pairing({}, {}, 30.0, 10.0)
    assert balance.predicted(p) == 0.75
    assert abs(balance.predicted(p, k=2) - 0.9) < 1e-12


def test_a_far_stronger_figure_wins_most_duels_by_gems_rules():
    strong = {"OFF": 8, "DEF": 8, "HIT": 3, "ATT": 2}
    weak = {"OFF": 2, "DEF": 2, "HIT": 1, "ATT": 1}
    wins = [balance.duel(strong, weak, seed) for seed in range(10)]
    assert wins.count("a") >= 9, wins


def test_run_writes_results_chart_and_report(tmp_path):
    report, interrupted = balance.run(pairs=3, duels=2, seed=2, out_dir=tmp_path, workers=0)
    assert not interrupted
    assert "RMS error" in report and "best fit k" in report
    lines = (tmp_path / "gem.jsonl").read_text().splitlines()
    assert len(lines) == 3
    assert (tmp_path / "gem.png").read_bytes()[:4] == b"\x89PNG"
