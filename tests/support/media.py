"""The files behind the download buttons of an AppTest run, read from Streamlit's own
media storage (the one ``st.download_button`` hands its data to)."""

from __future__ import annotations

import pytest
import streamlit.testing.v1.app_test as app_test
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest


class MediaRecorder:
    """Keeps the media manager of each AppTest run (AppTest makes a new one per run)."""

    def __init__(self) -> None:
        self.managers: list[MediaFileManager] = []

    def install(self, monkeypatch: pytest.MonkeyPatch) -> MediaRecorder:
        """Make AppTest's runs record their media managers here."""
        recorder = self

        class Recording(MediaFileManager):
            def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003
                super().__init__(*args, **kwargs)
                recorder.managers.append(self)

        monkeypatch.setattr(app_test, "MediaFileManager", Recording)
        return self

    def button_file(self, at: AppTest, key: str) -> bytes:
        """The bytes the download button ``key`` of the last run hands over (a deferred
        button's callable runs, as on a click)."""
        [button] = [b for b in at.get("download_button") if b.key == key]
        mgr = self.managers[-1]
        if button.proto.deferred_file_id:
            url = mgr.execute_deferred(button.proto.deferred_file_id)
        else:
            url = button.proto.url
        file_id = url.rsplit("/", 1)[1].split(".", 1)[0]
        return bytes(mgr._storage.get_file(file_id).content)  # noqa: SLF001 - the test reads it
