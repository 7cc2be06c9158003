// The UI's entry: the kit's styles (then the console's own), and the app mounted into the page.
import { mountApp } from '@switchboard/web-kit';
import '@switchboard/web-kit/styles.css';
import './console.css';
import { App } from './app.tsx';

mountApp(<App />);
