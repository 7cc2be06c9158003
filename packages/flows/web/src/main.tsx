// The UI's entry: the kit's styles (then the UI's own), and the app mounted into the page.
import { mountApp } from '@switchboard/web-kit';
import '@switchboard/web-kit/styles.css';
import { App } from './app.tsx';

mountApp(<App />);
