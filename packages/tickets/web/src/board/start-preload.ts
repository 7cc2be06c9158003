// Imported first by main.tsx: starts the board's read (board/preload.ts) before the rest of the page's script is evaluated.
import { preloadBoard } from './preload.ts';

preloadBoard(window.location.pathname, window.location.search);
