"""Names and enums shared by every layer."""

from enum import StrEnum

APP_NAME = "Unicum"
HOME_ENV = "UNICUM_HOME"
DEFAULT_HOME_DIRNAME = ".unicum-agent"
DEFAULT_MAX_TURNS = 50


class TaskPhase(StrEnum):
    """Where a task stands; drives what context compression protects."""

    PLANNING = "planning"
    EXECUTING = "executing"
    VERIFYING = "verifying"


class WireFormat(StrEnum):
    ANTHROPIC = "anthropic-messages"
    OPENAI = "openai-chat"
