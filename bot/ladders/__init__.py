"""Ladders (``/ladder``): a server's standing ranking that members climb by challenging those
above them. :mod:`bot.ladders.rules` holds the rules as pure functions (standard library only,
no database, no Discord); :mod:`bot.ladders.running` the use cases over the database and
:mod:`bot.ladders.view` what they show."""
