"""The engine plan: the checked model's statements as typed operations
(`ops`), built once (`build`), printed by each target (`printer`)."""
