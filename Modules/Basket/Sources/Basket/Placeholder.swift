import Tracking
