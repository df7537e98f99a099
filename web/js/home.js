// The home page: one big Play (a quick game, the nickname asked next to it), the other ways to
// play, and the lobby. Each part is a module of its own under home/.
import { whoAmI } from './account.js';
import './header.js';
import { initComputer } from './home/computer.js';
import { initDevice } from './home/device.js';
import { initFriend } from './home/friend.js';
import { initLobby } from './home/lobby.js';
import { refreshMyGames } from './home/my-games.js';
import { initNickname, renderNickname } from './home/nickname.js';
import { initNotice } from './home/notice.js';
import { initQuick } from './home/quick.js';
import { initRanked, renderRanked } from './home/ranked.js';

initNickname();
initQuick();
initRanked();
initFriend();
initComputer();
initDevice();
initNotice();
initLobby();

whoAmI().then((who) => {
  renderNickname(who);
  renderRanked(who);
  if (who.me) refreshMyGames();
});
