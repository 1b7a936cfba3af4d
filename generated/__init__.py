"""Engine modules written by `splendor-rules build`."""
