"""The pure-Python point-in-polygon used by physics and rulesets' hot paths."""

from engine.polygons import point_in_polygon

L_SHAPE = [(0, 0), (4, 0), (4, 1), (1, 1), (1, 4), (0, 4)]


def test_inside_and_outside_an_l_shape():
    assert point_in_polygon(0.5, 3.0, L_SHAPE)
    assert point_in_polygon(3.0, 0.5, L_SHAPE)
    assert not point_in_polygon(3.0, 3.0, L_SHAPE)  # the notch
    assert not point_in_polygon(-0.1, 0.5, L_SHAPE)
