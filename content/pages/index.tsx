/** The portal's home page. Body text is Portuguese like the docs; the chrome around it is English. */
export const meta = {
  title: 'Sorrix',
  description: 'Sorrix developer portal: pay with a smile. Documentation, API reference and mobile SDK for facial-recognition payments.',
};

const ANDROID_URL = 'https://play.google.com/store/apps/details?id=example.sorrix.app';
const IOS_URL = 'https://apps.apple.com/app/sorrix/id0000000000';

export default function Home() {
  return (
    <>
      <header className="hero">
        <img src="/img/logo.svg" alt="" width="72" height="72" />
        <h1 className="hero__title">Sem filas, sorria.</h1>
        <p className="hero__subtitle">
          Sorrix é o pagamento por reconhecimento facial: o consumidor olha para a câmera, o rosto é confirmado com prova de vida e a compra é paga
          com o meio que ele escolheu. Sem cartão, sem celular na mão, sem fila.
        </p>
        <div className="hero__actions">
          <a className="button button--primary button--lg" href="/docs/documentacao/introducao">
            Read the docs
          </a>
          <a className="button button--secondary button--lg" href="/api-reference">
            API Reference
          </a>
        </div>
      </header>

      <section className="home-section" aria-labelledby="para-quem">
        <div className="container">
          <h2 id="para-quem">Para quem é a Sorrix</h2>
          <p className="home-section__lead">Um mesmo fluxo de checkout, visto de dois lados do balcão.</p>
          <ul className="feature-grid">
            <li className="feature-card">
              <h3>Para lojistas</h3>
              <p>
                Checkout em segundos no caixa, no totem de autoatendimento ou no app da loja. Aceite crédito, débito, Pix e vale-refeição com a mesma
                experiência, e receba os dados de fidelidade do consumidor quando ele consentir.
              </p>
              <a href="/docs/documentacao/introducao">Como a Sorrix funciona</a>
            </li>
            <li className="feature-card">
              <h3>Para desenvolvedores</h3>
              <p>
                Um SDK móvel para Android e iOS que captura o rosto e devolve um capture token, e uma API REST com OAuth 2.0, idempotência, webhooks
                assinados e erros no formato RFC 9457.
              </p>
              <a href="/docs/api/comecando">Primeiro pagamento em 5 minutos</a>
            </li>
            <li className="feature-card">
              <h3>Para parceiros</h3>
              <p>
                Plataformas, adquirentes e software houses cadastram lojistas, lojas e terminais pela API de Onboarding e acompanham a aprovação de
                cada um.
              </p>
              <a href="/docs/onboarding/introducao-api">Conheça a API de Onboarding</a>
            </li>
            <li className="feature-card">
              <h3>Privacidade em primeiro lugar</h3>
              <p>
                Imagens do rosto nunca chegam aos servidores do lojista. Dados biométricos são tratados como dados pessoais sensíveis, conforme a LGPD, e
                o consumidor controla o consentimento.
              </p>
              <a href="/docs/documentacao/crm">Dados, consentimento e LGPD</a>
            </li>
          </ul>
        </div>
      </section>

      <section className="home-section home-section--soft" aria-labelledby="comece">
        <div className="container">
          <h2 id="comece">Comece por aqui</h2>
          <p className="home-section__lead">Do sandbox à produção, na ordem em que a maioria das integrações acontece.</p>
          <ol className="steps">
            <li>
              <h3>
                <a href="/docs/documentacao/credenciais">Obtenha credenciais de sandbox</a>
              </h3>
              <p>Gere o client_id e o client_secret no painel do parceiro e peça seu primeiro token OAuth 2.0.</p>
            </li>
            <li>
              <h3>
                <a href="/docs/sdk/introducao">Integre o SDK móvel</a>
              </h3>
              <p>Adicione o SDK ao app do caixa ou do totem e receba um capture token a cada rosto confirmado.</p>
            </li>
            <li>
              <h3>
                <a href="/docs/api/identificacao">Identifique e cobre</a>
              </h3>
              <p>Seu backend envia o token para a identificação e cobra com o meio de pagamento que o consumidor escolheu.</p>
            </li>
            <li>
              <h3>
                <a href="/docs/anexo/roteiro-homologacao">Passe pela homologação</a>
              </h3>
              <p>Cumpra o roteiro de homologação no sandbox e receba as credenciais de produção.</p>
            </li>
          </ol>
        </div>
      </section>

      <section className="home-section" aria-labelledby="apps">
        <div className="container">
          <h2 id="apps">Os apps Sorrix</h2>
          <p className="home-section__lead">
            O consumidor faz o cadastro uma única vez no app Sorrix: captura do rosto com prova de vida, dados de identificação e meios de pagamento.
          </p>
          <div className="store-links">
            <a className="button button--secondary" href={ANDROID_URL} target="_blank" rel="noopener noreferrer">
              Sorrix for Android
            </a>
            <a className="button button--secondary" href={IOS_URL} target="_blank" rel="noopener noreferrer">
              Sorrix for iOS
            </a>
          </div>
        </div>
      </section>
    </>
  );
}
