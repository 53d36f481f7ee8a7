"""Pixels to observations: finds Qwirkle tiles, their colour, shape and lattice cell."""
