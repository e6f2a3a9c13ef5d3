import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import './styles/base.css';
import './styles/layout.css';
import './styles/controls.css';
import './styles/toolbar.css';
import './styles/feedback.css';
import './styles/tables.css';
import './styles/details.css';
import './styles/settings.css';
import './styles/overview.css';
import './styles/lists.css';
import './styles/destinations.css';
import './styles/phone.css';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
