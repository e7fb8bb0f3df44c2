import Dispatcher
